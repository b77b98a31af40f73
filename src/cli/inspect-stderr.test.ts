import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseHostArgs } from './host-args.js';
import { runInspect } from './inspect-command.js';

// A 2025-11-25 stdio server whose tool fails with an error text that says "stderr", and whose
// real cause is on its stderr.
const SERVER = `
process.stderr.write('REAL CAUSE: disk full\\n');
let buffer = '';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\\n')) >= 0) {
    const m = JSON.parse(buffer.slice(0, nl));
    buffer = buffer.slice(nl + 1);
    if (m.id === undefined) continue;
    if (m.method === 'initialize')
      send({ id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } } });
    else if (m.method === 'tools/list')
      send({ id: m.id, result: { tools: [{ name: 't', inputSchema: { type: 'object' } }] } });
    else if (m.method === 'tools/call')
      send({ id: m.id, error: { code: -32603, message: 'could not write to stderr.log' } });
    else send({ id: m.id, error: { code: -32601, message: 'no' } });
  }
});
`;

let dir: string;
let script: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-inspect-stderr-'));
  script = join(dir, 'server.cjs');
  await writeFile(script, SERVER);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('inspect with a failure whose text says "stderr"', () => {
  it('still shows the server’s stderr section', async () => {
    const parsed = parseHostArgs('inspect', [
      '--era',
      '2025-11-25',
      'call',
      't',
      '--',
      process.execPath,
      script,
    ]);
    if (parsed.kind !== 'ok') throw new Error('usage');
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let code: number;
    try {
      code = await runInspect(parsed.args);
    } finally {
      spy.mockRestore();
      out.mockRestore();
    }
    const text = written.join('');
    expect(code).toBe(1);
    expect(text).toContain('could not write to stderr.log');
    expect(text).toContain("the server's stderr:\n  | REAL CAUSE: disk full\n");
  }, 20_000);
});
