/**
 * `readableLinks: true`: the `read_resource` and `list_resources` tools over a server's own
 * resources, for hosts that never read resources themselves. Reads go through the server's own
 * `resources/read` (templates, parts, scopes: the caller's authorization is carried along), so
 * the tools can reach nothing a `resources/read` from the same caller could not.
 */
import { ProtocolError } from '../errors/protocol-error.js';
import type { ReadResourceResult, Resource } from '../protocol/types.js';
import { MODERN_VERSIONS } from '../protocol/versions.js';
import { META } from '../protocol/meta-keys.js';
import type { RequestContext } from './context.js';
import type { Peer } from './peer.js';
import {
  LIST_RESOURCES_DESCRIPTION,
  LIST_RESOURCES_INPUT,
  listResourcesTool,
  READ_RESOURCE_DESCRIPTION,
  READ_RESOURCE_INPUT,
  readResourceTool,
  type ReadToolSource,
} from '../content/readable-links.js';

type Obj = Record<string, unknown>;

/** What registering needs of a server (the `McpServer` itself). */
export interface ReadableLinksHost {
  tool(
    name: string,
    definition: Obj,
    handler: (args: Obj, ctx: RequestContext) => unknown,
  ): () => void;
  connect(options: { transport: 'memory'; send: () => void }): Peer;
}

/** Registers the two tools (for good: `readableLinks` is fixed for the server's life). */
export function registerReadableLinks(server: ReadableLinksHost): void {
  let peer: Peer | undefined;
  let next = 0;
  const ask = async (method: string, params: Obj, ctx: RequestContext): Promise<Obj> => {
    peer ??= server.connect({ transport: 'memory', send: () => undefined });
    const meta = {
      [META.protocolVersion]: MODERN_VERSIONS[0],
      [META.clientCapabilities]: {},
    };
    const id = `readable-links-${++next}`;
    const answer = await peer.handle(
      { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } },
      { authInfo: ctx.authInfo, signal: ctx.signal },
    );
    if (!answer) throw ProtocolError.internal(`${method} was cancelled`);
    if ('error' in answer)
      throw new ProtocolError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result as Obj;
  };
  const source = (ctx: RequestContext): ReadToolSource => ({
    read: async (uri) =>
      (await ask('resources/read', { uri }, ctx)) as unknown as ReadResourceResult,
    list: async (cursor) =>
      (await ask('resources/list', cursor === undefined ? {} : { cursor }, ctx)) as unknown as {
        resources: Resource[];
        nextCursor?: string;
      },
  });
  const annotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  server.tool(
    'read_resource',
    { description: READ_RESOURCE_DESCRIPTION, input: READ_RESOURCE_INPUT, annotations },
    (args, ctx) => readResourceTool(source(ctx), args),
  );
  server.tool(
    'list_resources',
    { description: LIST_RESOURCES_DESCRIPTION, input: LIST_RESOURCES_INPUT, annotations },
    (args, ctx) => listResourcesTool(source(ctx), args),
  );
}
