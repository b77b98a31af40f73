/**
 * docs/from-sdk-v2.md sets the same server side by side, written with the official SDK v2 and
 * with mcpkit (examples/from-sdk-v2/). Both run here over stdio and must answer alike, and the
 * page must show each file as it is.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { modern } from '../../src/testing/messages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
type Json = Record<string, unknown>;

/** Runs an example over stdio, sends `requests` one per line; resolves with the answers by id. */
async function ask(file: string, requests: Json[]): Promise<Map<unknown, Json>> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, stdio: 'pipe' });
  const answers = new Map<unknown, Json>();
  let buffer = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const msg = JSON.parse(buffer.slice(0, nl)) as Json;
      buffer = buffer.slice(nl + 1);
      if ('id' in msg) answers.set(msg['id'], msg);
    }
  });
  child.stdin.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const deadline = Date.now() + 30_000;
  while (answers.size < requests.length && Date.now() < deadline && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  if (answers.size < requests.length) throw new Error(`${file}: ${answers.size} answers; ${err}`);
  return answers;
}

describe('the same server, SDK v2 and mcpkit (docs/from-sdk-v2.md)', () => {
  it('both answer tools/list, tools/call, resources/read and prompts/get alike', async () => {
    const requests = () => [
      modern('tools/list'),
      modern('tools/call', { name: 'shout', arguments: { text: 'hi' } }),
      modern('resources/read', { uri: 'note://hello' }),
      modern('prompts/get', { name: 'greet', arguments: { who: 'Ada' } }),
    ];
    const views = [];
    for (const file of ['sdk-server.ts', 'mcpkit-server.ts']) {
      const sent = requests();
      const got = await ask(join('examples', 'from-sdk-v2', file), sent);
      const result = (i: number) => (got.get(sent[i]?.id) as { result: Json }).result;
      const tools = result(0)['tools'] as Array<{ name: string; inputSchema: Json }>;
      views.push({
        tools: tools.map((t) => [t.name, (t.inputSchema as { properties: Json }).properties]),
        shout: (result(1)['content'] as Json[])[0],
        read: ((result(2)['contents'] as Json[])[0] as Json)['text'],
        greet: (result(3)['messages'] as Json[])[0],
      });
    }
    expect(views[0]).toEqual({
      tools: [['shout', { text: { type: 'string' } }]],
      shout: { type: 'text', text: 'HI' },
      read: '# Hello\n',
      greet: { role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } },
    });
    expect(views[1]).toEqual(views[0]);
  }, 60_000);

  it('the page shows both files as they are', () => {
    const page = readFileSync(join(ROOT, 'docs', 'from-sdk-v2.md'), 'utf8');
    for (const file of ['sdk-server.ts', 'mcpkit-server.ts']) {
      const code = readFileSync(join(ROOT, 'examples', 'from-sdk-v2', file), 'utf8');
      expect(page, file).toContain(code.trim());
    }
  });
});
