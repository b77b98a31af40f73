import { describe, expect, it } from 'vitest';
import { createProgressReporter, type ProgressOptions } from './progress.js';

function reporter(options: Partial<ProgressOptions> = {}) {
  const out: string[] = [];
  const clock = { t: 0 };
  const progress = createProgressReporter({
    write: (s) => out.push(s),
    tty: false,
    label: 'mcpkit: /d',
    now: () => clock.t,
    tickMs: 0,
    ...options,
  });
  return { out, clock, progress };
}

describe('progress on stderr', () => {
  it('stays silent for quick work', () => {
    const { out, clock, progress } = reporter();
    const walked = progress.counter({ verb: 'walked' });
    walked.update({ count: 10 });
    clock.t = 100;
    walked.finish({ count: 20 }, 'in 2 folders');
    expect(out).toEqual([]);
  });

  it('plain lines, throttled, then a summary line (not a terminal)', () => {
    const { out, clock, progress } = reporter({ delayMs: 300, intervalMs: 1000 });
    const walked = progress.counter({ verb: 'walked' });
    for (let i = 1; i <= 30; i++) {
      clock.t = i * 100;
      walked.update({ count: i * 1000 });
    }
    walked.finish({ count: 30_500, bytes: 3 * 1024 * 1024 }, 'in 31 folders');
    expect(out).toEqual([
      'mcpkit: /d: walked 3,000 files (10,000 files/s)\n',
      'mcpkit: /d: walked 13,000 files (10,000 files/s)\n',
      'mcpkit: /d: walked 23,000 files (10,000 files/s)\n',
      'mcpkit: /d: walked 30,500 files (3.0 MiB) in 31 folders, 3.0 s\n',
    ]);
  });

  it('rewrites one line on a terminal', () => {
    const { out, clock, progress } = reporter({ tty: true });
    const walked = progress.counter({ verb: 'walked' });
    walked.update({ count: 0 });
    clock.t = 1000;
    walked.update({ count: 1 });
    walked.update({ count: 5 });
    expect(out).toEqual(['\r\x1b[Kmcpkit: /d: walked 1 files (1 files/s)']);
    walked.finish({ count: 5 });
    expect(out[1]).toBe('\r\x1b[Kmcpkit: /d: walked 5 files, 1.0 s\n');
  });

  it('several counters share the line; a total gives an ETA; bytes give MiB/s', () => {
    const { out, clock, progress } = reporter({ delayMs: 0, intervalMs: 0 });
    const walked = progress.counter({ verb: 'walked' });
    const indexed = progress.counter({ verb: 'indexed', rate: 'bytes' });
    clock.t = 2000;
    walked.update({ count: 40_000 });
    indexed.update({ count: 10_000, bytes: 40 * 1024 * 1024, total: 40_000 });
    expect(out.at(-1)).toBe(
      'mcpkit: /d: walked 40,000 files (20,000 files/s) · indexed 10,000 of 40,000 files (20.0 MiB/s, ETA 6 s)\n',
    );
    walked.finish({ count: 40_000 }, 'in 400 folders');
    clock.t = 4000;
    indexed.update({ count: 20_000, bytes: 80 * 1024 * 1024, total: 40_000 });
    expect(out.slice(-2)).toEqual([
      'mcpkit: /d: walked 40,000 files in 400 folders, 2.0 s\n',
      'mcpkit: /d: indexed 20,000 of 40,000 files (20.0 MiB/s, ETA 4 s)\n',
    ]);
  });

  it('a warning gets a line of its own above the progress line on a terminal', () => {
    const { out, clock, progress } = reporter({ tty: true, delayMs: 0 });
    const walked = progress.counter({ verb: 'walked' });
    clock.t = 1000;
    walked.update({ count: 7 });
    progress.log('mcpkit: careful');
    expect(out).toEqual([
      '\r\x1b[Kmcpkit: /d: walked 7 files (7 files/s)',
      '\r\x1b[Kmcpkit: careful\n',
      '\r\x1b[Kmcpkit: /d: walked 7 files (7 files/s)',
    ]);
  });

  it('redraws without news, so that a stuck task still shows where it stands', async () => {
    const out: string[] = [];
    const progress = createProgressReporter({
      write: (s) => out.push(s),
      tty: false,
      label: 'mcpkit: /d',
      delayMs: 0,
      intervalMs: 0,
      tickMs: 5,
    });
    const walked = progress.counter({ verb: 'walked' });
    walked.update({ count: 3 });
    const shown = out.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(out.length).toBeGreaterThan(shown);
    expect(out.at(-1)).toMatch(/^mcpkit: \/d: walked 3 files \(\d+ files\/s\)\n$/);
    walked.finish({ count: 3 });
    const after = out.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(out.length).toBe(after);
  });
});
