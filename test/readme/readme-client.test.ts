import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The README's "client in N lines" must run as printed against the bundled example folder.
const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.split(/## A client in \d+ lines/)[1] ?? '';
const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
const dir = join(root, 'test', '.tmp-client');
const file = join(dir, 'readme-client.ts');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README client example', () => {
  it('is short (at most 22 non-blank lines)', () => {
    expect(code).toBeDefined();
    const lines = (code ?? '')
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.length).toBeLessThanOrEqual(22);
  });

  it('runs as printed against mcpkit serve examples/docs', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, code ?? '');
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code_ = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(code_).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe('mcpkit-serve speaks 2026-07-28 (modern)');
    expect(lines).toContain('file:///README.md text/markdown');
    expect(lines).toContain('file:///data/defaults.json application/json');
    expect(lines).toContain('link: file:///README.md');
    // One line per listed resource, then the read's MIME type and the followed link.
    const listed = lines.filter((l) => l.startsWith('file:///'));
    expect(listed.length).toBeGreaterThanOrEqual(5);
  }, 30_000);
});
