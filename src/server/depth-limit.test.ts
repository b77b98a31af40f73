import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH } from '../protocol/depth.js';
import type { JSONRPCResponse } from '../protocol/jsonrpc.js';
import type { Era } from '../protocol/versions.js';
import { initializeRequest, modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import { createServer } from './server.js';
import type { ServerOptions } from './options.js';

// maxDepth counts levels below `params`: an object or array directly in params is level 1
// (`_meta`, `arguments`), one inside it level 2, and so on; scalars add no level. So
// `_meta.clientCapabilities.experimental` is level 3 and `arguments.deep` level 2.

const CAPS = 'io.modelcontextprotocol/clientCapabilities';

/** `levels` nested objects (so `{ x: nest(n) }` has n levels below it). */
function nest(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** A message whose `deep` placeholder is `levels` nested arrays, parsed from text as a transport would. */
function withDeep(message: object, levels: number): unknown {
  const text = JSON.stringify(message).replace(
    '"__deep__"',
    `${'['.repeat(levels)}${']'.repeat(levels)}`,
  );
  return JSON.parse(text);
}

function setup(options: Partial<ServerOptions> = {}) {
  const errors: unknown[] = [];
  const server = createServer({
    name: 'depth',
    version: '1',
    onError: (error) => void errors.push(error),
    ...options,
  });
  server.tool(
    'echo',
    { input: { type: 'object', properties: { text: { type: 'string' }, deep: {} } } },
    ({ text }: { text?: string }) => text ?? 'no text',
  );
  return { server, conn: connectInMemory(server), errors };
}

const tooDeep = (id: unknown, limit = DEFAULT_MAX_DEPTH) => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32602,
    message: expect.stringContaining(`more than ${limit} levels below params (maxDepth ${limit})`),
    data: { limit, reason: 'too-deep' },
  },
});

/** tools/list with `_meta.clientCapabilities.experimental` as the deep placeholder. */
const deepCaps = () => modern('tools/list', {}, { experimental: '__deep__' });

describe('dispatch: nesting depth (maxDepth, default 64)', () => {
  it('answers 100,000-deep _meta.clientCapabilities.experimental with -32602 and the id', async () => {
    const { conn, errors } = setup();
    const request = deepCaps();
    expect(request.params._meta[CAPS]).toEqual({ experimental: '__deep__' });
    const response = await conn.send(withDeep(request, 100_000));
    expect(response).toEqual(tooDeep(request.id));
    expect(errors).toEqual([]);
  });

  it('answers 100,000-deep tool arguments with -32602 (not -32603 from canonicalJson)', async () => {
    const { conn, errors } = setup();
    const request = modern('tools/call', { name: 'echo', arguments: { deep: '__deep__' } });
    expect(await conn.send(withDeep(request, 100_000))).toEqual(tooDeep(request.id));
    expect(errors).toEqual([]);
  });

  it('answers a deep legacy initialize the same way (the check precedes the era)', async () => {
    const { conn } = setup();
    const init = initializeRequest({ experimental: '__deep__' });
    expect(await conn.send(withDeep(init, 100_000))).toEqual(tooDeep(init.id));
  });

  it('serves 64 levels below params and refuses 65, in _meta and in arguments', async () => {
    const { conn } = setup();
    // _meta (1) > clientCapabilities (2) > experimental = nest(62) (3 to 64).
    const caps = (levels: number) =>
      modern('tools/list', {}, { experimental: nest(levels - 2) as Record<string, unknown> });
    const ok = caps(64);
    expect(await conn.send(ok)).toMatchObject({ id: ok.id, result: { tools: [{ name: 'echo' }] } });
    const refused = caps(65);
    expect(await conn.send(refused)).toEqual(tooDeep(refused.id));
    // arguments (1) > deep = nest(63) (2 to 64).
    const call = (levels: number) =>
      modern('tools/call', { name: 'echo', arguments: { text: 'hi', deep: nest(levels - 1) } });
    const served = call(64);
    expect(await conn.send(served)).toMatchObject({
      id: served.id,
      result: { content: [{ type: 'text', text: 'hi' }] },
    });
    const deeper = call(65);
    expect(await conn.send(deeper)).toEqual(tooDeep(deeper.id));
  });

  it('honours maxDepth, and refuses a maxDepth that is not a positive integer', async () => {
    const { conn } = setup({ maxDepth: 3 });
    const three = modern('tools/list', {}, { experimental: {} });
    expect(await conn.send(three)).toMatchObject({ result: { tools: expect.any(Array) } });
    const four = modern('tools/list', {}, { experimental: { x: {} } });
    expect(await conn.send(four)).toEqual(tooDeep(four.id, 3));
    for (const maxDepth of [0, -1, 1.5, Number.NaN]) {
      expect(() => createServer({ name: 'x', version: '1', maxDepth })).toThrow(
        /maxDepth must be a positive integer/,
      );
    }
  });

  it('refuses cyclic params from an in-memory caller instead of overflowing the stack', async () => {
    const { conn } = setup();
    const args: Record<string, unknown> = { text: 'x' };
    args['self'] = args;
    const request = modern('tools/call', { name: 'echo', arguments: args });
    expect(await conn.send(request)).toEqual(tooDeep(request.id));
  });

  it('fails the request a too-deep client response answers, and answers with id null', async () => {
    const { conn } = setup();
    const response = withDeep({ jsonrpc: '2.0', id: 'mcpkit-1', result: { x: '__deep__' } }, 100);
    expect(await conn.send(response)).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining('more than 64 levels below result') },
    });
  });

  it('answers -32603 with the id when something outside the handler throws', async () => {
    const { conn, errors } = setup();
    const request = modern('tools/list');
    const response = (await conn.send(request, {
      get era(): Era {
        throw new RangeError('Maximum call stack size exceeded');
      },
    })) as JSONRPCResponse;
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: request.id,
      error: { code: -32603, message: 'Internal error while handling tools/list' },
    });
    expect(errors).toEqual([expect.any(RangeError)]);
  });
});
