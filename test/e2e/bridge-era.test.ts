/**
 * A 2026-07-28 host in front of a 2025-11-25-only upstream, through the built CLI (real
 * processes): the upstream's elicitation during `tools/call` reaches the host as an
 * `input_required` result, the host's retry answers it and gets the upstream's result; a
 * tampered or expired `requestState` is refused with -32602 naming it (an expired call is
 * cancelled upstream), and one call over `--max-parked-inputs` fails clearly.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { CLI, ROOT } from './serve-harness.js';

type Obj = Record<string, unknown>;

const UPSTREAM = join(ROOT, 'test/e2e/bridge/legacy-eliciting-server.mjs');
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-bridge-era-'));
let files = 0;
const hosts: McpClient[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close().catch(() => undefined);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 2026-07-28 host (answering elicitation with `name`) of a bridge with `options`. */
async function host(options: string[], name = 'Ada') {
  const events = join(dir, `events-${++files}.log`);
  const client = await new McpClient({
    transport: new StdioClientTransport({
      command: process.execPath,
      args: [
        CLI,
        'bridge',
        '--forward-input',
        ...options,
        '--',
        process.execPath,
        UPSTREAM,
        events,
      ],
      stderr: 'capture',
    }),
    era: 'modern',
    cache: false,
    handlers: { elicitation: () => ({ action: 'accept', content: { name } }) },
  }).connect();
  hosts.push(client);
  const lines = (): string[] => {
    try {
      return readFileSync(events, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  return { client, lines };
}

const call = (client: McpClient, params: Obj) =>
  client.request(
    'tools/call',
    { name: 'greet', arguments: {}, ...params },
    {
      inputRequired: 'return',
    },
  );

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Error & { code?: unknown }) => e,
  );

describe('mcpkit bridge: 2026-07-28 host, 2025-11-25 upstream, input requests', () => {
  it('turns the upstream elicitation into input_required and answers it with the retry', async () => {
    const { client } = await host([]);
    expect(client.era).toBe('modern');
    // McpClient answers input_required itself (its handlers) and retries through the bridge.
    const result = await client.callTool('greet', {});
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);

    const first = await call(client, {});
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        'elicitation-1': {
          method: 'elicitation/create',
          params: { message: 'What is your name?' },
        },
      },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'legacy-eliciting' } },
    });
    const done = await call(client, {
      inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Grace' } } },
      requestState: first['requestState'],
    });
    expect(done).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hello, Grace!' }],
    });
  });

  it('refuses a tampered requestState with -32602 naming it, the call still answerable', async () => {
    const { client } = await host([]);
    const first = await call(client, {});
    const answer = { 'elicitation-1': { action: 'accept', content: { name: 'Lin' } } };
    const tampered = await failure(
      call(client, { inputResponses: answer, requestState: `${String(first['requestState'])}-x` }),
    );
    expect(tampered).toMatchObject({ code: -32602 });
    expect(tampered?.message).toContain('requestState');
    const done = await call(client, {
      inputResponses: answer,
      requestState: first['requestState'],
    });
    expect(done['content']).toEqual([{ type: 'text', text: 'Hello, Lin!' }]);
  });

  it('cancels the upstream call when the host does not retry within --input-ttl', async () => {
    const { client, lines } = await host(['--input-ttl', '200ms']);
    const first = await call(client, {});
    await expect
      .poll(lines, { timeout: 10_000 })
      .toContainEqual(expect.stringMatching(/^cancelled /));
    const late = await failure(
      call(client, {
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'x' } } },
        requestState: first['requestState'],
      }),
    );
    expect(late).toMatchObject({ code: -32602 });
    expect(late?.message).toMatch(/params\.requestState is unknown or has expired/);
    // The host's connection stays usable.
    expect((await client.callTool('greet', {})).content).toEqual([
      { type: 'text', text: 'Hello, Ada!' },
    ]);
  });

  it('--max-parked-inputs 1: a second call that would wait for input is refused naming the option', async () => {
    const { client } = await host(['--max-parked-inputs', '1']);
    const first = await call(client, {});
    // One host: the second call's elicitation is its own, but no second call may wait.
    const second = await call(client, {}).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    );
    expect(second).toMatch(/max-parked-inputs|maxParkedInputs/);
    const done = await call(client, {
      inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'One' } } },
      requestState: first['requestState'],
    });
    expect(done['content']).toEqual([{ type: 'text', text: 'Hello, One!' }]);
  });

  it('fails the upstream elicitation clearly when the host did not declare elicitation', async () => {
    const { client, lines } = await host([]);
    const result = await client.request(
      'tools/call',
      { name: 'greet', arguments: {} },
      { inputRequired: 'return', clientCapabilities: { sampling: {} } },
    );
    expect(result['isError']).toBe(true);
    expect(JSON.stringify(result['content'])).toContain('no elicitation capability');
    expect(lines()).toContainEqual(expect.stringMatching(/^error .*no elicitation capability/));
  });
});
