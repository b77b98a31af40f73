import { describe, expect, it } from 'vitest';
import { createWalkProgress } from './audit-command.js';

function clock(): { now: () => number; at: (ms: number) => void } {
  let t = 0;
  return { now: () => t, at: (ms) => void (t = ms) };
}

describe('createWalkProgress', () => {
  it('says nothing in the first second, then a line every 2 s (not a terminal)', () => {
    const lines: string[] = [];
    const c = clock();
    const p = createWalkProgress({
      stdout: () => undefined,
      stderr: (t) => lines.push(t),
      tty: false,
      now: c.now,
    });
    p.update('listing tools', 0, 0);
    c.at(900);
    p.update('reading resources', 3, 10);
    c.at(1000);
    p.update('reading resources', 4, 10);
    c.at(2500);
    p.update('reading resources', 5, 10);
    c.at(3100);
    p.update('getting prompts', 0, 2);
    p.end();
    expect(lines).toEqual([
      'mcpkit audit: reading resources 5/10…\n',
      'mcpkit audit: getting prompts 1/2…\n',
    ]);
  });

  it('rewrites one line on a terminal, and clears it at the end', () => {
    const out: string[] = [];
    const c = clock();
    const p = createWalkProgress({
      stdout: () => undefined,
      stderr: (t) => out.push(t),
      tty: true,
      now: c.now,
    });
    c.at(1200);
    p.update('listing prompts', 0, 0);
    p.end();
    expect(out).toEqual(['\r\x1b[Kmcpkit audit: listing prompts…', '\r\x1b[K']);
  });

  it('leaves stderr alone when nothing was shown', () => {
    const out: string[] = [];
    const p = createWalkProgress({
      stdout: () => undefined,
      stderr: (t) => out.push(t),
      tty: true,
      now: () => 0,
    });
    p.update('listing tools', 0, 0);
    p.end();
    expect(out).toEqual([]);
  });
});
