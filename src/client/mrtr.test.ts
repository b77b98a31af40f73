import { describe, expect, it, vi } from 'vitest';
import { ProtocolError } from '../errors/index.js';
import type { JSONRPCRequest } from '../protocol/index.js';
import { ScriptedTransport, result, settle } from '../testing/scripted-transport.js';
import type { Reply } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import type { InputHandlers } from './input-handlers.js';
import { applyElicitationDefaults } from './input-handlers.js';
import { DEFAULT_MAX_INPUT_REQUESTS, type McpClientOptions } from './options.js';

type Obj = Record<string, unknown>;

const done = { content: [{ type: 'text', text: 'done' }], resultType: 'complete' };
const elicit = {
  method: 'elicitation/create',
  params: {
    message: 'Your name?',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        lang: { type: 'string', default: 'en' },
        n: { type: 'integer', default: 3 },
      },
    },
  },
};
const sample = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 },
};
const roots = { method: 'roots/list', params: {} };

const handlers: InputHandlers = {
  elicitation: vi.fn(() => ({ action: 'accept' as const, content: { name: 'Ada' } })),
  sampling: vi.fn(() => ({
    role: 'assistant',
    content: { type: 'text', text: 'hello' },
    model: 'm',
  })),
  roots: vi.fn(() => ({ roots: [{ uri: 'file:///work', name: 'work' }] })),
};

async function open(script: (m: JSONRPCRequest) => Reply, options: Partial<McpClientOptions> = {}) {
  const t = new ScriptedTransport().modern().onRequest('tools/call', script);
  const c = await new McpClient({ transport: t, handlers, ...options }).connect();
  return { t, c };
}

const paramsOf = (t: ScriptedTransport) => t.requests('tools/call').map((r) => r.params);

describe('MRTR', () => {
  it("inputRequired: 'return' gives the input_required result as it came (a proxy's client answers it); clientCapabilities replaces the client's own", async () => {
    const asked = {
      resultType: 'input_required',
      inputRequests: { who: elicit },
      requestState: 's1',
    };
    const { t, c } = await open(() => result(asked));
    const caps = { elicitation: { form: {} } };
    const out = await c.request(
      'tools/call',
      { name: 'greet' },
      { inputRequired: 'return', clientCapabilities: caps },
    );
    expect(out).toMatchObject(asked);
    expect(t.requests('tools/call')).toHaveLength(1);
    expect(handlers.elicitation).not.toHaveBeenCalled();
    expect(paramsOf(t)[0]?.['_meta']).toMatchObject({
      'io.modelcontextprotocol/clientCapabilities': caps,
    });
  });

  it('answers input requests through the handlers and retries with a new id, the original params, inputResponses and the exact requestState', async () => {
    const state = 'opaque+/=state\u00e9 ';
    const { t, c } = await open((m) =>
      m.params?.['inputResponses']
        ? result(done)
        : result({
            resultType: 'input_required',
            inputRequests: { who: elicit, llm: sample, fs: roots },
            requestState: state,
          }),
    );
    const out = await c.callTool('greet', { loud: true }, { meta: { trace: 't1' } });
    expect(out.content).toEqual(done.content);
    const [first, retry] = t.requests('tools/call');
    expect(retry!.id).not.toBe(first!.id);
    const { inputResponses, requestState, _meta, ...rest } = retry!.params;
    expect(rest).toEqual({ name: 'greet', arguments: { loud: true } });
    expect(requestState).toBe(state);
    expect(_meta).toMatchObject({
      trace: 't1',
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    });
    expect(inputResponses).toEqual({
      who: { action: 'accept', content: { name: 'Ada', lang: 'en', n: 3 } },
      llm: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' },
      fs: { roots: [{ uri: 'file:///work', name: 'work' }] },
    });
    expect(handlers.elicitation).toHaveBeenCalledWith(
      elicit.params,
      expect.objectContaining({
        era: 'modern',
        request: { method: 'tools/call', params: { name: 'greet', arguments: { loud: true } } },
      }),
    );
  });

  it('declares the capabilities its handlers make true', async () => {
    const { t } = await open(() => result(done));
    expect(t.requests('server/discover')[0]!.params['_meta']).toMatchObject({
      'io.modelcontextprotocol/clientCapabilities': {
        elicitation: { form: {} },
        sampling: {},
        roots: {},
      },
    });
  });

  it('sends no requestState when the server gave none', async () => {
    const { t, c } = await open((m) =>
      m.params?.['inputResponses']
        ? result(done)
        : result({ resultType: 'input_required', inputRequests: { r: roots } }),
    );
    await c.callTool('x');
    const retry = paramsOf(t).at(-1)!;
    expect(retry).toHaveProperty('inputResponses');
    expect(retry).not.toHaveProperty('requestState');
  });

  it('a requestState-only round retries with the state and no inputResponses', async () => {
    const { t, c } = await open((m) =>
      m.params?.['requestState'] === 'go'
        ? result(done)
        : result({ resultType: 'input_required', requestState: 'go' }),
    );
    await c.callTool('x', { a: 1 });
    const retry = paramsOf(t)[1]!;
    expect(retry['requestState']).toBe('go');
    expect(retry).not.toHaveProperty('inputResponses');
    expect(retry['arguments']).toEqual({ a: 1 });
  });

  it('goes through several rounds, each with the state of the round before', async () => {
    const { t, c } = await open((m) => {
      const s = m.params?.['requestState'];
      if (s === undefined)
        return result({
          resultType: 'input_required',
          inputRequests: { a: roots },
          requestState: 's1',
        });
      if (s === 's1')
        return result({
          resultType: 'input_required',
          inputRequests: { b: elicit },
          requestState: 's2',
        });
      return result(done);
    });
    await c.callTool('x');
    const sent = paramsOf(t);
    expect(sent.map((p) => p['requestState'])).toEqual([undefined, 's1', 's2']);
    expect(Object.keys(sent[1]!['inputResponses'] as Obj)).toEqual(['a']);
    expect(Object.keys(sent[2]!['inputResponses'] as Obj)).toEqual(['b']);
    expect(new Set(t.requests('tools/call').map((r) => r.id)).size).toBe(3);
  });

  it('gives up after maxInputRounds', async () => {
    const { t, c } = await open(
      () => result({ resultType: 'input_required', requestState: 'again' }),
      { maxInputRounds: 3 },
    );
    await expect(c.callTool('x')).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: expect.stringContaining('3 rounds'),
    });
    expect(t.requests('tools/call')).toHaveLength(4);
  });

  it('takes at most maxInputRequests input requests in one round: INVALID_RESULT past it, no handler run', async () => {
    const many = (n: number): Obj =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, roots]));
    const answered = (n: number) => (m: JSONRPCRequest) =>
      m.params?.['inputResponses']
        ? result(done)
        : result({ resultType: 'input_required', inputRequests: many(n) });
    const onRoots = vi.fn(() => ({ roots: [] }));
    const at = await open(answered(DEFAULT_MAX_INPUT_REQUESTS), { handlers: { roots: onRoots } });
    await at.c.callTool('x');
    expect(onRoots).toHaveBeenCalledTimes(DEFAULT_MAX_INPUT_REQUESTS);
    onRoots.mockClear();
    const over = await open(answered(DEFAULT_MAX_INPUT_REQUESTS + 1), {
      handlers: { roots: onRoots },
    });
    await expect(over.c.callTool('x')).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: expect.stringMatching(
        new RegExp(`result\\.inputRequests .*${DEFAULT_MAX_INPUT_REQUESTS + 1}.*maxInputRequests`),
      ),
      cause: { field: 'result.inputRequests' },
    });
    expect(onRoots).not.toHaveBeenCalled();
    expect(over.t.requests('tools/call')).toHaveLength(1);
    const raised = await open(answered(3), { handlers: { roots: onRoots }, maxInputRequests: 2 });
    await expect(raised.c.callTool('x')).rejects.toMatchObject({ code: 'INVALID_RESULT' });
  });

  it('an input request with no handler surfaces a -32601 ProtocolError and is not retried', async () => {
    const { t, c } = await open(
      () => result({ resultType: 'input_required', inputRequests: { s: sample } }),
      { handlers: { elicitation: () => ({ action: 'decline' }) } },
    );
    const error = await c.callTool('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32601 });
    expect(t.requests('tools/call')).toHaveLength(1);
  });

  it('prompts/get and resources/read go through MRTR too', async () => {
    const t = new ScriptedTransport()
      .modern()
      .onRequest('prompts/get', (m) =>
        m.params?.['requestState']
          ? result({ messages: [], resultType: 'complete' })
          : result({ resultType: 'input_required', requestState: 'p' }),
      )
      .onRequest('resources/read', (m) =>
        m.params?.['requestState']
          ? result({ contents: [], resultType: 'complete', ttlMs: 0, cacheScope: 'private' })
          : result({ resultType: 'input_required', requestState: 'r' }),
      );
    const c = await new McpClient({ transport: t }).connect();
    await c.getPrompt('p', { a: 'b' });
    await c.readResource('mem://x');
    expect(t.requests('prompts/get')[1]!.params).toMatchObject({
      name: 'p',
      arguments: { a: 'b' },
      requestState: 'p',
    });
    expect(t.requests('resources/read')[1]!.params).toMatchObject({
      uri: 'mem://x',
      requestState: 'r',
    });
  });

  it('a result that went through input rounds is never cached', async () => {
    const t = new ScriptedTransport()
      .modern()
      .onRequest('resources/read', (m) =>
        m.params?.['requestState']
          ? result({ contents: [], resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' })
          : result({ resultType: 'input_required', requestState: 'r' }),
      );
    const c = await new McpClient({ transport: t }).connect();
    await c.readResource('mem://x');
    await c.readResource('mem://x');
    expect(t.requests('resources/read')).toHaveLength(4);
  });

  it('input_required on a method that may not send it is INVALID_RESULT', async () => {
    const t = new ScriptedTransport()
      .modern()
      .onRequest('tools/list', result({ resultType: 'input_required', requestState: 'x' }));
    const c = await new McpClient({ transport: t }).connect();
    await expect(c.listTools()).rejects.toMatchObject({ code: 'INVALID_RESULT' });
  });
});

describe('elicitation defaults (SEP-1034)', () => {
  const schema = elicit.params.requestedSchema;
  it('fills what an accepted answer left out, keeps what it gave', () => {
    expect(applyElicitationDefaults(schema, { action: 'accept', content: { lang: 'fr' } })).toEqual(
      {
        action: 'accept',
        content: { lang: 'fr', n: 3 },
      },
    );
    expect(applyElicitationDefaults(schema, { action: 'accept' })).toEqual({
      action: 'accept',
      content: { lang: 'en', n: 3 },
    });
  });
  it('leaves a decline alone', () => {
    expect(applyElicitationDefaults(schema, { action: 'decline' })).toEqual({ action: 'decline' });
  });
});

describe('2025-11-25 server-to-client requests', () => {
  async function legacyClient(h: InputHandlers | undefined = handlers) {
    const t = new ScriptedTransport({ kind: 'http' }).legacy();
    const c = await new McpClient({ transport: t, ...(h ? { handlers: h } : {}) }).connect();
    return { t, c };
  }

  it('ping, elicitation (with defaults), sampling and roots are answered via respond', async () => {
    const { t } = await legacyClient();
    t.push({ jsonrpc: '2.0', id: 's1', method: 'ping' });
    t.push({ jsonrpc: '2.0', id: 's2', method: 'elicitation/create', params: elicit.params });
    t.push({ jsonrpc: '2.0', id: 3, method: 'sampling/createMessage', params: sample.params });
    t.push({ jsonrpc: '2.0', id: 4, method: 'roots/list', params: {} });
    await settle();
    const byId = new Map(t.responses().map((r) => [r.id, r]));
    expect(byId.get('s1')).toEqual({ jsonrpc: '2.0', id: 's1', result: {} });
    expect(byId.get('s2')).toMatchObject({
      result: { action: 'accept', content: { name: 'Ada', lang: 'en', n: 3 } },
    });
    expect(byId.get(3)).toMatchObject({ result: { model: 'm' } });
    expect(byId.get(4)).toMatchObject({ result: { roots: [{ uri: 'file:///work' }] } });
    const record = t.sent.find((s) => s.kind === 'respond')!;
    expect(record.headers['MCP-Protocol-Version']).toBe('2025-11-25');
  });

  it('an unknown method or a missing handler gets a -32601 error response', async () => {
    const { t } = await legacyClient({});
    t.push({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: {} });
    t.push({ jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: sample.params });
    await settle();
    expect(t.responses()).toEqual([
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32601 }) }),
      expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32601 }) }),
    ]);
  });

  it('a handler that throws gets a -32603 error response', async () => {
    const { t } = await legacyClient({
      roots: () => {
        throw new Error('no disk');
      },
    });
    t.push({ jsonrpc: '2.0', id: 7, method: 'roots/list' });
    await settle();
    expect(t.responses()[0]).toMatchObject({ id: 7, error: { code: -32603 } });
  });
});
