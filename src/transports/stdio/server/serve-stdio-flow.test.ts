import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
import { until, withTimeout } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import type { ToolHandler } from '../../../server/definitions.js';
import {
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_QUEUED_BYTES,
  serveStdio,
  type StdioOptions,
} from './serve-stdio.js';

// Flow control of stdio: a client that pipelines requests and does not read stdout must not make
// the server read (and answer into memory) all of stdin. Bounds are asserted on bytes and calls,
// never on time: waits are for states (stdin paused, a count reached).

/** A stdin that counts what was pulled from it; it only produces when its reader asks. */
function stdin(lines: string[]) {
  let next = 0;
  const stats = { pulled: 0, total: lines.reduce((sum, line) => sum + line.length, 0) };
  const stream = new Readable({
    highWaterMark: 16 * 1024,
    read() {
      for (;;) {
        const line = lines[next++];
        if (line === undefined) return void this.push(null);
        stats.pulled += line.length;
        if (!this.push(line)) return;
      }
    },
  });
  // What serveStdio itself took: pulled, less what still sits in the stream's buffer.
  const consumed = (): number => stats.pulled - stream.readableLength;
  return { stream, stats, consumed };
}

/** Reads stdout line by line from now on, handing each parsed message to `onMessage`. */
function readLines(output: PassThrough, onMessage: (message: Record<string, unknown>) => void) {
  let partial = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onMessage(JSON.parse(line) as Record<string, unknown>);
  });
}

const call = (n: number) =>
  `${JSON.stringify({ ...modern('tools/call', { name: 't', arguments: { n } }), id: `r${n}` })}\n`;

const cancel = (n: number) =>
  `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: `r${n}` } })}\n`;

function serverWith(handler: ToolHandler<{ n: number }>) {
  const server = createServer({ name: 'flow', version: '1', onError: () => undefined });
  const input = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
  server.tool('t', { input }, handler);
  return server;
}

/** Lets queued callbacks, timers and stream events run, so that a bound is not checked too early. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
}

function textOf(message: Record<string, unknown>): string | undefined {
  const result = message['result'] as { content?: Array<{ text?: string }> } | undefined;
  return result?.content?.[0]?.text;
}

describe('serveStdio flow control', () => {
  it('stops reading stdin while stdout is not read, then answers everything once it is', async () => {
    const answer = 16 * 1024;
    let calls = 0;
    const server = serverWith(({ n }) => {
      calls++;
      return `${n}:`.padEnd(answer, 'x');
    });
    const count = 4000;
    const source = stdin(Array.from({ length: count }, (_, i) => call(i)));
    const output = new PassThrough();
    const options: StdioOptions = { input: source.stream, output, maxInFlight: 8 };
    options.maxQueuedBytes = 64 * 1024;
    const conn = serveStdio(server, options);

    await until(() => source.stream.isPaused(), 'stdin to be paused');
    await settle();
    // In memory: at most 8 running, answers up to the mark plus those 8, requests up to the mark.
    expect(calls).toBeLessThanOrEqual(8 + Math.ceil(options.maxQueuedBytes / answer) + 1);
    // Read: the requests started, and those waiting (up to the mark, plus the line that passed it).
    expect(source.consumed()).toBeLessThanOrEqual(options.maxQueuedBytes + 8 * 1024);
    expect(source.stats.pulled).toBeLessThan(source.stats.total / 4);

    // The client reads: reading resumes, and every request gets its own, whole answer.
    const seen = new Set<unknown>();
    let wrong = 0;
    readLines(output, (m) => {
      const n = Number(String(m['id']).slice(1));
      const text = textOf(m);
      if (seen.has(m['id']) || text?.length !== answer || !text.startsWith(`${n}:`)) wrong++;
      seen.add(m['id']);
    });
    await withTimeout(conn.closed, 30_000, 'every request read, then EOF');
    await until(() => seen.size + wrong >= count, 'every answer');
    expect(wrong).toBe(0);
    expect(seen.size).toBe(count);
    expect(calls).toBe(count);
    expect(source.stats.pulled).toBe(source.stats.total);
  });

  it('does not answer 20,000 pipelined 54 KB reads into memory with the defaults', async () => {
    const answer = 54 * 1024;
    const text = 'x'.repeat(answer);
    let calls = 0;
    const server = serverWith(() => {
      calls++;
      return text;
    });
    const source = stdin(Array.from({ length: 20_000 }, (_, i) => call(i)));
    const output = new PassThrough();
    const conn = serveStdio(server, { input: source.stream, output });
    await until(
      () => calls >= Math.floor(DEFAULT_MAX_QUEUED_BYTES / answer),
      'answers up to the mark',
    );
    await settle();
    // Answers stop at the high-water mark plus what was running: not 20,000 x 54 KB (1 GiB).
    expect(calls).toBeLessThanOrEqual(
      Math.ceil(DEFAULT_MAX_QUEUED_BYTES / answer) + 2 * DEFAULT_MAX_IN_FLIGHT,
    );
    // The 20,000 requests themselves (5 MB of text) may all wait: they are under the mark.
    conn.close();
    await conn.closed;
    server.close();
  });

  it('runs at most maxInFlight requests, and still reads cancellations meanwhile', async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const server = serverWith(async ({ n }, ctx) => {
      started.push(n);
      await new Promise<void>((resolve, reject) => {
        const abort = (): void => {
          aborted.push(n);
          reject(new Error('aborted'));
        };
        if (ctx.signal.aborted) return abort();
        void gate.then(resolve);
        ctx.signal.addEventListener('abort', abort);
      });
      return `done ${n}`;
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const messages: Array<Record<string, unknown>> = [];
    readLines(output, (m) => messages.push(m));
    const conn = serveStdio(server, { input, output, maxInFlight: 4 });
    const first = Array.from({ length: 12 }, (_, i) => call(i + 1)).join('');
    const rest = Array.from({ length: 20 }, (_, i) => call(i + 13)).join('');
    // r10 waits behind the cap: cancelled, it never starts. r2 runs: cancelled, it is aborted.
    input.write(`${first}${cancel(10)}${cancel(2)}${rest}`);

    await until(() => started.length === 5, 'r5 to start in the slot r2 left');
    await settle();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(aborted).toEqual([2]);

    open();
    await until(() => messages.length === 30, 'the 30 answers');
    input.end();
    await conn.closed;
    expect(started).not.toContain(10);
    const ids = messages.map((m) => m['id']);
    expect(ids).not.toContain('r2');
    expect(ids).not.toContain('r10');
    expect(new Set(ids).size).toBe(30);
    for (const m of messages) expect(textOf(m)).toBe(`done ${String(m['id']).slice(1)}`);
  });

  it('stops reading once the requests waiting for a slot pass maxQueuedBytes', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let calls = 0;
    const server = serverWith(async ({ n }) => {
      calls++;
      await gate;
      return `done ${n}`;
    });
    const source = stdin(Array.from({ length: 1000 }, (_, i) => call(i)));
    const output = new PassThrough();
    const messages: Array<Record<string, unknown>> = [];
    readLines(output, (m) => messages.push(m));
    const maxQueuedBytes = 4 * 1024;
    const conn = serveStdio(server, {
      input: source.stream,
      output,
      maxInFlight: 2,
      maxQueuedBytes,
    });

    await until(() => source.stream.isPaused(), 'stdin to be paused');
    await settle();
    expect(calls).toBe(2);
    expect(source.consumed()).toBeLessThanOrEqual(maxQueuedBytes + 2 * 1024);
    expect(source.stats.pulled).toBeLessThan(source.stats.total / 4);

    open();
    await withTimeout(conn.closed, 30_000, 'every request read, then EOF');
    await until(() => messages.length === 1000, 'every answer');
    expect(new Set(messages.map((m) => m['id'])).size).toBe(1000);
    expect(source.stats.pulled).toBe(source.stats.total);
  });

  it('refuses limits that are not positive integers', () => {
    const server = createServer({ name: 'flow', version: '1' });
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => serveStdio(server, { input: new PassThrough(), maxInFlight: bad })).toThrow(
        /maxInFlight must be a positive integer/,
      );
      expect(() => serveStdio(server, { input: new PassThrough(), maxQueuedBytes: bad })).toThrow(
        /maxQueuedBytes must be a positive integer/,
      );
    }
  });
});
