import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

// The README's "server in N lines" must run as printed: extract it, run it over stdio, use it.
const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.split(/## A server in \d+ lines/)[1] ?? '';
const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
const dir = join(root, 'test', '.tmp');
const file = join(dir, 'readme-example.ts');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README example', () => {
  it('has a short server example (at most 20 non-blank lines)', () => {
    expect(code).toBeDefined();
    const lines = (code ?? '')
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.length).toBeLessThanOrEqual(20);
  });

  it('runs as printed and answers over stdio', async () => {
    mkdirSync(dir, { recursive: true });
    // 'mcpkit/…' resolves to this package's own dist/ through its export map (self-reference).
    writeFileSync(file, code ?? '');
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout });
    const answers = new Map<number, Record<string, unknown>>();
    const waiters = new Map<number, () => void>();
    lines.on('line', (line) => {
      const msg = JSON.parse(line) as { id: number };
      answers.set(msg.id, msg);
      waiters.get(msg.id)?.();
    });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const ask = (id: number, method: string, params: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve) => {
        waiters.set(id, () => resolve(answers.get(id) as Record<string, unknown>));
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } })}\n`,
        );
      });
    try {
      expect(await ask(1, 'resources/read', { uri: 'note://hello' })).toMatchObject({
        result: {
          contents: [{ uri: 'note://hello', mimeType: 'text/markdown', text: '# Hello\n' }],
        },
      });
      expect(await ask(2, 'resources/read', { uri: 'note://nope' })).toMatchObject({
        error: { code: -32602 },
      });
      expect(
        await ask(3, 'tools/call', { name: 'shout', arguments: { text: 'hi' } }),
      ).toMatchObject({ result: { content: [{ type: 'text', text: 'HI' }] } });
      expect(
        await ask(4, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }),
      ).toMatchObject({ result: { messages: [{ content: { text: 'Say hello to Ada.' } }] } });
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(child.exitCode).toBe(0);
  });
});
