/**
 * stdio end to end: a real child process (src/testing/e2e-server.ts, and the built CLI) fed bad
 * input. Every bad line must get a clear, specific error, and the process must keep serving,
 * keep stdout pure JSON-RPC, leave in-flight requests alone, and exit 0 at EOF.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializeRequest, legacy, modern } from '../../src/testing/messages.js';
import { until, withTimeout } from '../../src/testing/sse.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const MAX_LINE = 64 * 1024;

type Message = Record<string, unknown> & { id?: unknown; method?: string };
type ErrorMessage = { id: unknown; error: { code: number; message: string; data?: unknown } };

/** A spawned stdio server: collects stdout lines (each parsed) and stderr. */
class StdioProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every complete stdout line, raw. */
  readonly lines: string[] = [];
  /** Every stdout line parsed (a line that is not JSON is kept as `{ unparsable }`). */
  readonly messages: Message[] = [];
  stdout = '';
  stderr = '';
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private partial = '';

  constructor(command: string, args: string[]) {
    this.child = spawn(command, args, {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.stdout += chunk;
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop() ?? '';
      for (const line of parts) {
        this.lines.push(line);
        try {
          this.messages.push(JSON.parse(line) as Message);
        } catch {
          this.messages.push({ unparsable: line });
        }
      }
    });
    this.child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    // Writing to a process that already exited must not crash the test runner.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
  }

  /** Writes raw text as is (add the newline yourself). */
  write(raw: string): void {
    this.child.stdin.write(raw);
  }

  /** Writes each message as one line. */
  send(...messages: unknown[]): void {
    this.write(
      messages.map((m) => (typeof m === 'string' ? m : JSON.stringify(m)) + '\n').join(''),
    );
  }

  /** How many messages arrived so far; pass it to `since`. */
  mark(): number {
    return this.messages.length;
  }

  since(mark: number): Message[] {
    return this.messages.slice(mark);
  }

  responseTo(id: unknown): Message | undefined {
    return this.messages.find((m) => m.id === id && ('result' in m || 'error' in m));
  }

  async response(id: unknown, ms = 5000): Promise<Message> {
    await until(
      () => this.responseTo(id) !== undefined || this.exit !== undefined,
      `the response to id ${JSON.stringify(id)}`,
      ms,
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}; got ${JSON.stringify(this.messages.slice(-5))}; stderr: ${this.stderr}`,
      );
    });
    const found = this.responseTo(id);
    if (!found)
      throw new Error(
        `the process exited (${JSON.stringify(this.exit)}) before answering id ${JSON.stringify(id)}; stderr: ${this.stderr}`,
      );
    return found;
  }

  /** Waits for the e2e server's start-up line on stderr (a slow start is not a failure of a case). */
  async ready(ms = 20_000): Promise<void> {
    await until(
      () => this.stderr.includes('e2e: serving on stdio') || this.exit !== undefined,
      'the server to start',
      ms,
    );
    if (this.exit !== undefined) throw new Error(`the server exited at start-up: ${this.stderr}`);
  }

  /** Closes stdin (EOF) and waits for the exit. */
  async end(ms = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    return withTimeout(this.exited, ms, 'the process to exit after EOF');
  }

  /** Last-resort cleanup. */
  kill(): void {
    if (this.exit === undefined) this.child.kill('SIGKILL');
  }
}

const e2eServer = (...flags: string[]) =>
  new StdioProcess(process.execPath, [
    '--import',
    'tsx',
    'src/testing/e2e-server.ts',
    '--stdio',
    ...flags,
  ]);

const call = (name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) =>
  modern('tools/call', { name, arguments: args, _meta: meta });

const textOf = (m: Message | undefined): unknown =>
  (m as { result?: { content?: Array<{ text?: string }> } } | undefined)?.result?.content?.[0]
    ?.text;

/** Asserts a stdout transcript is nothing but newline-terminated JSON-RPC messages. */
function expectOnlyJsonRpc(stdout: string): void {
  expect(stdout.endsWith('\n')).toBe(true);
  const lines = stdout.slice(0, -1).split('\n');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      throw new Error(
        `stdout carried a line that is not JSON: ${JSON.stringify(line.slice(0, 200))}`,
      );
    }
    expect(message.jsonrpc, line).toBe('2.0');
    const isResponse = 'id' in message && ('result' in message || 'error' in message);
    const isNotification = typeof message.method === 'string' && !('id' in message);
    expect(isResponse || isNotification, `not a server message: ${line.slice(0, 200)}`).toBe(true);
  }
}

// All processes start together (their start-up overlaps); each test uses its own.
let procs: {
  main: StdioProcess;
  noNewline: StdioProcess;
  legacy: StdioProcess;
  cli: StdioProcess | undefined;
};
beforeAll(async () => {
  procs = {
    main: e2eServer('--max-line-bytes', String(MAX_LINE)),
    noNewline: e2eServer(),
    legacy: e2eServer(),
    cli: new StdioProcess(process.execPath, [CLI, 'serve', '--stdio']),
  };
  await Promise.all([procs.main.ready(), procs.noNewline.ready(), procs.legacy.ready()]);
});
afterAll(() => {
  for (const p of Object.values(procs)) p?.kill();
});

describe('stdio: bad input on a live process', () => {
  let srv: StdioProcess;
  const cancelledIds: unknown[] = [];

  beforeAll(() => {
    srv = procs.main;
  });

  const badIdless = { id: null };
  it.each([
    {
      name: 'malformed JSON',
      line: () => '{"jsonrpc":"2.0","id":',
      expected: { ...badIdless, code: -32700, message: /^Parse error: / },
    },
    {
      name: 'a batch array',
      line: () => JSON.stringify([modern('tools/list'), modern('server/discover')]),
      expected: { ...badIdless, code: -32600, message: /batches are not supported/ },
    },
    {
      name: 'a JSON value that is not an object',
      line: () => '42',
      expected: { ...badIdless, code: -32600, message: /must be a JSON object/ },
    },
    {
      name: 'a wrong jsonrpc version',
      line: () => JSON.stringify({ jsonrpc: '1.0', id: 'v1', method: 'tools/list' }),
      expected: { id: 'v1', code: -32600, message: /"jsonrpc" must be "2\.0"/ },
    },
    {
      name: 'a request without _meta',
      line: () =>
        JSON.stringify({ jsonrpc: '2.0', id: 'no-meta', method: 'tools/list', params: {} }),
      expected: {
        id: 'no-meta',
        code: -32602,
        message: /params\._meta is required/,
        data: { field: 'params._meta' },
      },
    },
    {
      name: 'a request without params at all',
      line: () => JSON.stringify({ jsonrpc: '2.0', id: 'no-params', method: 'tools/list' }),
      expected: {
        id: 'no-params',
        code: -32602,
        message: /params\._meta is required/,
        data: { field: 'params._meta' },
      },
    },
    {
      name: '_meta without clientCapabilities',
      line: () =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 'no-caps',
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
        }),
      expected: {
        id: 'no-caps',
        code: -32602,
        message: /io\.modelcontextprotocol\/clientCapabilities"\] is required/,
        data: { field: 'params._meta["io.modelcontextprotocol/clientCapabilities"]' },
      },
    },
    {
      name: 'an unknown method',
      line: () => JSON.stringify({ ...modern('nope/nope'), id: 'unknown' }),
      expected: { id: 'unknown', code: -32601, message: /Method not found: nope\/nope/ },
    },
    {
      name: 'an unsupported protocol version',
      line: () =>
        JSON.stringify({
          ...modern('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999' } }),
          id: 'v999',
        }),
      expected: {
        id: 'v999',
        code: -32022,
        message: /Unsupported protocol version "v999"/,
        data: { supported: ['2026-07-28'], requested: 'v999' },
      },
    },
    {
      name: 'an unknown tool',
      line: () => JSON.stringify({ ...call('no-such-tool', {}), id: 'tool' }),
      expected: { id: 'tool', code: -32602, message: /no-such-tool/ },
    },
    {
      name: 'an invalid resource URI',
      line: () => JSON.stringify({ ...modern('resources/read', { uri: 'not a uri' }), id: 'uri' }),
      expected: { id: 'uri', code: -32602, message: /params\.uri must be an absolute URI/ },
    },
  ])('answers $name with $expected.code and serves the next line', async ({ line, expected }) => {
    const mark = srv.mark();
    const next = call('echo', { text: `after ${expected.code}` });
    srv.write(`${line()}\n${JSON.stringify(next)}\n`);
    expect(textOf(await srv.response(next.id))).toBe(`after ${expected.code}`);
    const errors = srv.since(mark).filter((m) => 'error' in m) as unknown as ErrorMessage[];
    expect(errors).toHaveLength(1);
    const [error] = errors as [ErrorMessage];
    expect(error.id).toBe(expected.id);
    expect(error.error.code).toBe(expected.code);
    expect(error.error.message).toMatch(expected.message);
    if ('data' in expected) expect(error.error.data).toEqual(expected.data);
  });

  it('answers a line over maxLineBytes with one error naming the limit, then serves the next request', async () => {
    const mark = srv.mark();
    const huge = call('echo', { text: 'x'.repeat(200 * 1024) });
    const next = call('echo', { text: 'after the long line' });
    // Arrives in several pipe chunks; the decoder must discard it as it streams in.
    srv.write(JSON.stringify(huge).slice(0, 100_000));
    srv.write(`${JSON.stringify(huge).slice(100_000)}\n${JSON.stringify(next)}\n`);
    expect(textOf(await srv.response(next.id))).toBe('after the long line');
    const got = srv.since(mark);
    expect(got.filter((m) => m.id === huge.id)).toEqual([]);
    const errors = got.filter((m) => 'error' in m) as unknown as ErrorMessage[];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      id: null,
      error: { code: -32600, data: { limit: MAX_LINE } },
    });
    expect(errors[0]!.error.message).toContain('maxLineBytes');
    expect(errors[0]!.error.message).toContain(String(MAX_LINE));
  });

  it('reports progress on stdout before the result of the same request', async () => {
    const mark = srv.mark();
    const req = call('progress', { steps: 3 }, { progressToken: 'p-stdio' });
    srv.send(req);
    const response = await srv.response(req.id);
    expect(textOf(response)).toBe('progress done after 3 steps');
    const got = srv.since(mark);
    const progress = got.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m) => m['params'])).toEqual(
      [1, 2, 3].map((i) => ({
        progressToken: 'p-stdio',
        progress: i,
        total: 3,
        message: `step ${i}`,
      })),
    );
    expect(got.indexOf(progress[2]!)).toBeLessThan(got.indexOf(response));
  });

  it('keeps a slow in-flight request intact while bad lines arrive (ids not mixed)', async () => {
    const mark = srv.mark();
    const slow = call('slow', { tag: 'inflight', ms: 500 });
    const noMeta = { jsonrpc: '2.0', id: 'inflight-no-meta', method: 'tools/list', params: {} };
    const unknown = { ...modern('nope/inflight'), id: 'inflight-unknown' };
    const echoes = [1, 2, 3].map((i) => call('echo', { text: `echo ${i}` }));
    srv.send(slow);
    srv.send(
      '{not json',
      echoes[0],
      JSON.stringify([slow]),
      noMeta,
      `{"jsonrpc":"2.0","id":"too-long","method":"tools/list","params":{"x":"${'y'.repeat(MAX_LINE)}"}}`,
      echoes[1],
      unknown,
      '',
      echoes[2],
    );
    for (const [i, e] of echoes.entries())
      expect(textOf(await srv.response(e.id))).toBe(`echo ${i + 1}`);
    expect(await srv.response(noMeta.id)).toMatchObject({ error: { code: -32602 } });
    expect(await srv.response(unknown.id)).toMatchObject({ error: { code: -32601 } });
    // Still in flight when everything above was answered...
    expect(srv.responseTo(slow.id)).toBeUndefined();
    // ...and then answered with its own result.
    const done = await srv.response(slow.id);
    expect(done).toMatchObject({
      id: slow.id,
      result: { content: [{ type: 'text', text: 'slow inflight done' }] },
    });
    const got = srv.since(mark);
    const nullIds = got.filter((m) => m.id === null) as unknown as ErrorMessage[];
    expect(nullIds.map((m) => m.error.code).sort()).toEqual([-32700, -32600, -32600].sort());
    expect(got.filter((m) => m.id === 'too-long')).toEqual([]);
    // Exactly one response per request id.
    const ids = got.filter((m) => m.id !== null && m.id !== undefined).map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(srv.stderr).not.toMatch(/unexpected stdio dispatch failure/);
  });

  it('honours notifications/cancelled: no response for the cancelled request, others continue', async () => {
    const victim = call('slow', { tag: 'cancel-me', ms: 5000 });
    const other = call('slow', { tag: 'other', ms: 50 });
    const echo = call('echo', { text: 'still here' });
    cancelledIds.push(victim.id);
    srv.send(victim);
    srv.send(
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: victim.id, reason: 'test' },
      },
      other,
      echo,
    );
    // Cancelling an unknown id is ignored.
    srv.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'never-sent' },
    });
    expect(textOf(await srv.response(echo.id))).toBe('still here');
    expect(textOf(await srv.response(other.id))).toBe('slow other done');
    await until(
      () => srv.stderr.includes('e2e: slow cancel-me aborted'),
      'the slow handler to see its abort signal',
    );
    expect(srv.responseTo(victim.id)).toBeUndefined();
  });

  it('cancels a handler that only looks at ctx.signal after the cancellation arrived', async () => {
    const victim = call('late', { tag: 'late-stdio', ms: 300 });
    cancelledIds.push(victim.id);
    srv.send(victim, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: victim.id },
    });
    await until(
      () => srv.stderr.includes('e2e: late late-stdio'),
      'the late handler to look at its signal',
    );
    expect(srv.stderr).toContain('e2e: late late-stdio aborted=true');
  });

  it('exits 0 after EOF, answering what was written just before; stdout carried only JSON-RPC', async () => {
    const slow = call('slow', { tag: 'at-eof', ms: 100 });
    const last = call('echo', { text: 'last words' });
    srv.write(`${JSON.stringify(slow)}\n${JSON.stringify(last)}\n`);
    const exit = await srv.end();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(textOf(srv.responseTo(last.id))).toBe('last words');
    expect(textOf(srv.responseTo(slow.id))).toBe('slow at-eof done');
    // The request cancelled earlier never got a response, not even at shutdown.
    for (const id of cancelledIds) expect(srv.responseTo(id)).toBeUndefined();
    expectOnlyJsonRpc(srv.stdout);
    expect(srv.messages.some((m) => 'unparsable' in m)).toBe(false);
    // Logs went to stderr.
    expect(srv.stderr).toContain('e2e: serving on stdio');
    expect(srv.stderr).toContain('e2e: stdin closed, exiting');
  });
});

describe('stdio: hostile nesting and ids on a live process (defaults: maxDepth 64)', () => {
  let p: StdioProcess;
  beforeAll(async () => {
    p = e2eServer();
    await p.ready();
  });
  afterAll(() => p.kill());

  /** `message` as one line, its "__deep__" placeholder replaced by `levels` nested arrays. */
  const deepLine = (message: object, levels: number): string =>
    JSON.stringify(message).replace('"__deep__"', `${'['.repeat(levels)}${']'.repeat(levels)}`);
  const nest = (levels: number): unknown =>
    Array.from({ length: levels }).reduce<unknown>((inner) => ({ a: inner }), 'leaf');
  const tooDeep = (id: unknown) => ({
    jsonrpc: '2.0',
    id,
    error: {
      code: -32602,
      message: expect.stringContaining('more than 64 levels below params (maxDepth 64)'),
      data: { limit: 64, reason: 'too-deep' },
    },
  });

  it.each([
    [
      '_meta.clientCapabilities.experimental',
      () => modern('tools/list', {}, { experimental: '__deep__' }),
    ],
    ['tool arguments', () => call('echo', { text: 'deep', deep: '__deep__' })],
  ])(
    'answers 100,000-deep %s with -32602 and the id, then serves the next line',
    async (_what, build) => {
      const deep = build();
      const next = call('echo', { text: 'after the deep line' });
      p.write(`${deepLine(deep, 100_000)}\n${JSON.stringify(next)}\n`);
      expect(await p.response(deep.id)).toEqual(tooDeep(deep.id));
      expect(textOf(await p.response(next.id))).toBe('after the deep line');
      expect(p.stderr).not.toMatch(/RangeError|unexpected stdio/);
    },
  );

  it('serves 64 levels below params and refuses 65 (arguments is level 1)', async () => {
    const ok = call('echo', { text: 'sixty-four', deep: nest(63) });
    const refused = call('echo', { text: 'sixty-five', deep: nest(64) });
    p.send(ok, refused);
    expect(textOf(await p.response(ok.id))).toBe('sixty-four');
    expect(await p.response(refused.id)).toEqual(tooDeep(refused.id));
  });

  it('refuses an integer id past Number.MAX_SAFE_INTEGER with -32600 and id null', async () => {
    const mark = p.mark();
    const safe = call('echo', { text: 'largest safe id' });
    const body = JSON.stringify({ ...call('echo', { text: 'unsafe id' }), id: 0 });
    p.write(`${body.replace('"id":0', '"id":18446744073709551617')}\n`);
    p.write(`${JSON.stringify({ ...safe, id: Number.MAX_SAFE_INTEGER })}\n`);
    expect(textOf(await p.response(Number.MAX_SAFE_INTEGER))).toBe('largest safe id');
    const errors = p.since(mark).filter((m) => 'error' in m) as unknown as ErrorMessage[];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(errors[0]!.error.message).toContain(String(Number.MAX_SAFE_INTEGER));
    expect(errors[0]!.error.message).toContain('Number.MAX_SAFE_INTEGER');
    // Nothing came back with the rounded id.
    expect(p.lines.some((line) => line.includes('18446744073709552000'))).toBe(false);
    expect(await p.end()).toEqual({ code: 0, signal: null });
    expectOnlyJsonRpc(p.stdout);
  });
});

describe('stdio: EOF edge cases', () => {
  it('answers a last request that has no trailing newline, then exits 0', async () => {
    const p = procs.noNewline;
    const req = call('echo', { text: 'no newline' });
    p.write(JSON.stringify(req));
    expect(await p.end()).toEqual({ code: 0, signal: null });
    expect(textOf(p.responseTo(req.id))).toBe('no newline');
    expectOnlyJsonRpc(p.stdout);
  });

  it('serves a legacy (2025-11-25) client: initialize, initialized, ping, tools/list', async () => {
    const p = procs.legacy;
    const init = initializeRequest();
    p.send(init);
    expect(await p.response(init.id)).toMatchObject({
      result: {
        protocolVersion: '2025-11-25',
        serverInfo: { name: 'mcpkit-e2e' },
        capabilities: { tools: {} },
      },
    });
    const ping = legacy('ping');
    const list = legacy('tools/list', {});
    const notFound = legacy('resources/read', { uri: 'mem://nope' });
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, ping, list, notFound);
    expect(await p.response(ping.id)).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
    const tools = (await p.response(list.id)) as {
      result: { tools: Array<{ name: string }>; resultType?: string };
    };
    expect(tools.result.tools.map((t) => t.name)).toEqual(['echo', 'slow', 'late', 'progress']);
    expect(tools.result.resultType).toBeUndefined();
    expect(await p.response(notFound.id)).toMatchObject({
      error: { code: -32002, message: /mem:\/\/nope/ },
    });
    expect(await p.end()).toEqual({ code: 0, signal: null });
    expectOnlyJsonRpc(p.stdout);
  });
});

describe('stdio: the built CLI', () => {
  it('answers server/discover from `mcpkit serve --stdio` and exits 0 at EOF', async () => {
    const p = procs.cli!;
    const discover = modern('server/discover');
    p.send('{oops', discover);
    expect(await p.response(discover.id)).toMatchObject({
      result: {
        supportedVersions: ['2026-07-28'],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcpkit-serve' } },
      },
    });
    expect(p.messages[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await p.end()).toEqual({ code: 0, signal: null });
    expectOnlyJsonRpc(p.stdout);
  });
});
