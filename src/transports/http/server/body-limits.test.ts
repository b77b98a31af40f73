import { afterAll, describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
import { until, withTimeout } from '../../../testing/sse.js';
import { createE2eServer } from '../../../testing/e2e-server.js';
import { BodyBudget, BodyTally } from './body-limits.js';
import { createHttpHandler } from './web-handler.js';

const URL_ = 'http://127.0.0.1/mcp';
const MAX_BODY = 1000;
const TOTAL = 1500;
const IDLE_MS = 50;

describe('BodyTally: one body against its cap and the shared budget', () => {
  it('reserves a declared length up front and releases it once', () => {
    const budget = new BodyBudget(TOTAL);
    const limits = { maxBytes: MAX_BODY, idleMs: IDLE_MS, budget };
    const a = new BodyTally(limits);
    expect(a.declare('800')).toBeUndefined();
    expect(budget.used).toBe(800);
    expect(a.add(500)).toBeUndefined();
    expect(budget.used).toBe(800);
    const b = new BodyTally(limits);
    expect(b.declare('800')).toEqual({ refused: 'busy' });
    expect(new BodyTally(limits).declare('1001')).toEqual({ refused: 'too-large' });
    a.release();
    a.release();
    b.release();
    expect(budget.used).toBe(0);
  });

  it('reserves a body without a length as it arrives', () => {
    const budget = new BodyBudget(TOTAL);
    const limits = { maxBytes: MAX_BODY, idleMs: IDLE_MS, budget };
    const a = new BodyTally(limits);
    const b = new BodyTally(limits);
    expect(a.declare(null)).toBeUndefined();
    expect(a.add(900)).toBeUndefined();
    expect(b.add(600)).toBeUndefined();
    expect(budget.used).toBe(1500);
    expect(b.add(1)).toEqual({ refused: 'busy' });
    expect(a.add(101)).toEqual({ refused: 'too-large' });
    a.release();
    b.release();
    expect(budget.used).toBe(0);
  });
});

describe('createHttpHandler: stalled bodies and the body budget', () => {
  const server = createE2eServer();
  const handle = createHttpHandler(server, {
    maxBodyBytes: MAX_BODY,
    maxBodyTotalBytes: TOTAL,
    bodyTimeoutMs: IDLE_MS,
  });
  afterAll(() => {
    handle.close();
    server.close();
  });

  /** A body that sends `bytes` and then nothing, until the test cancels or the reader gives up. */
  function stalled(bytes: number) {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(bytes).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    return { body, cancelled: () => cancelled };
  }

  const headers = (extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  });

  const post = (body: string | ReadableStream<Uint8Array>, extra: Record<string, string> = {}) =>
    handle(
      new Request(URL_, {
        method: 'POST',
        headers: headers(extra),
        body,
        duplex: 'half',
      } as RequestInit),
    );

  it('answers a body that stalls with 408 after bodyTimeoutMs, cancels it and releases its bytes', async () => {
    const { body, cancelled } = stalled(100);
    const res = await withTimeout(post(body), 5000, 'the 408');
    expect(res.status).toBe(408);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(/sent nothing for 50 ms \(bodyTimeoutMs\)/),
      },
    });
    expect(cancelled()).toBe(true);
    expect(handle.bufferedBodyBytes).toBe(0);
  });

  it('answers 503 with retry-after to a body that would pass maxBodyTotalBytes, without reading it', async () => {
    const first = stalled(900);
    const pending = post(first.body);
    await until(() => handle.bufferedBodyBytes === 900, 'the first body to be buffered');
    const second = stalled(700);
    const refused = await post(second.body);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      error: {
        code: -32603,
        message: expect.stringMatching(/1500 bytes in all \(maxBodyTotalBytes\)/),
      },
    });
    expect(second.cancelled()).toBe(true);
    expect(handle.bufferedBodyBytes).toBe(900);
    expect((await pending).status).toBe(408);
    expect(handle.bufferedBodyBytes).toBe(0);
    // A body that fits is served once the budget has room again.
    const req = modern('server/discover');
    const ok = await post(JSON.stringify(req), {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    });
    expect(ok.status).toBe(200);
    expect(handle.bufferedBodyBytes).toBe(0);
  });

  it('refuses a whole body that no longer fits as its bytes arrive, keeping none of it', async () => {
    const first = stalled(600);
    const pending = post(first.body);
    await until(() => handle.bufferedBodyBytes === 600, 'the first body to be buffered');
    // 600 + 1000 > 1500: refused, though under maxBodyBytes (fetch sets no Content-Length here).
    const refused = await post(' '.repeat(1000));
    expect(refused.status).toBe(503);
    expect(handle.bufferedBodyBytes).toBe(600);
    expect((await pending).status).toBe(408);
    expect(handle.bufferedBodyBytes).toBe(0);
  });

  it('releases the bytes of a body whose client went away', async () => {
    let fail!: (e: Error) => void;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(300));
        fail = (e) => c.error(e);
      },
    });
    const pending = post(body).then(
      () => 'answered',
      () => 'rejected',
    );
    await until(() => handle.bufferedBodyBytes === 300, 'the body to be buffered');
    fail(new Error('client went away'));
    await pending;
    expect(handle.bufferedBodyBytes).toBe(0);
  });
});
