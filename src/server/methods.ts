import { META } from '../protocol/meta-keys.js';
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  SubscriptionFilter,
  Tool,
} from '../protocol/types.js';
import { MODERN_VERSIONS } from '../protocol/versions.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { InputRequiredSignal, type RequestContext } from './context.js';
import { frame } from './listen.js';
import { paginate } from './pagination.js';
import { readResource } from './read.js';
import { canonicalJson } from './request-state.js';
import { uriProblem } from '../protocol/uri-syntax.js';
import type { ListedResource } from './types.js';
import type { McpServer } from './server.js';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

export interface MethodEnv {
  server: McpServer;
  ctx: RequestContext;
  notify: (message: JSONRPCMessage) => void;
}

export interface MethodSpec {
  /** Adds `ttlMs`/`cacheScope` (modern era): 'list' from server options, 'read' per resource. */
  cache?: 'list' | 'read';
  /** Methods that may answer InputRequiredResult: what binds a requestState to the request. */
  /** Binds a requestState to this request: method, target, arguments and the caller's identity. */
  target?: (params: Params, authInfo?: unknown) => string;
  run: (params: Params, env: MethodEnv) => Promise<Result>;
}

function pageSize(server: McpServer): number {
  return server.options.pageSize ?? 100;
}

async function readResourceMethod(params: Params, { server, ctx }: MethodEnv): Promise<Result> {
  return readResource(server, params['uri'] as string, ctx);
}

async function callTool(params: Params, { server, ctx }: MethodEnv): Promise<Result> {
  const name = params['name'] as string;
  const entry = server.tools.get(name);
  if (!entry) throw ProtocolError.invalidParams(`Unknown tool: ${JSON.stringify(name)}`, { name });
  let args: unknown = params['arguments'] ?? {};
  if (entry.input) {
    const checked = await entry.input.check(args);
    if (!checked.ok) {
      return toolError(`Invalid arguments for tool "${name}": ${checked.message}`);
    }
    args = checked.value;
  }
  let value;
  try {
    value = await entry.handler(args as never, ctx);
  } catch (error) {
    if (error instanceof ProtocolError || error instanceof InputRequiredSignal) throw error;
    server.options.onError?.(error, `tools/call ${name}`);
    return toolError(
      `Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const result: CallToolResult =
    typeof value === 'string'
      ? { content: [{ type: 'text', text: value }] }
      : Array.isArray(value)
        ? { content: value }
        : { ...value };
  if (entry.output && !result.isError) {
    const checked =
      result.structuredContent === undefined
        ? undefined
        : await entry.output.check(result.structuredContent);
    if (!checked?.ok) {
      const why = checked ? checked.message : 'structuredContent is missing';
      throw ProtocolError.internal(`tool "${name}" broke its outputSchema: ${why}`);
    }
  }
  const sc = result.structuredContent;
  if (
    ctx.era === 'legacy' &&
    sc !== undefined &&
    (typeof sc !== 'object' || sc === null || Array.isArray(sc))
  ) {
    // 2025-11-25 requires an object; the text content still carries the value.
    delete result.structuredContent;
  }
  await checkLinks(ctx, result.content, `tool "${name}"`, server);
  return result as unknown as Result;
}

/** The link guarantee: every resource_link we emit must resolve with resources/read. */
async function checkLinks(
  ctx: RequestContext,
  blocks: ContentBlock[],
  who: string,
  server: McpServer,
): Promise<void> {
  // Every URI we emit is an RFC 3986 URI, whatever the link policy.
  for (const [i, b] of blocks.entries()) {
    const uri =
      b.type === 'resource_link' ? b.uri : b.type === 'resource' ? b.resource.uri : undefined;
    const problem = uri === undefined ? undefined : uriProblem(uri);
    if (problem)
      throw ProtocolError.internal(
        `${who} returned content[${i}] with an invalid URI ${JSON.stringify(uri)}: ${problem}`,
      );
  }
  const mode = ctx.linkCheck;
  if (mode === 'off' || !blocks.some((b) => b.type === 'resource_link')) return;
  const bad = await ctx.unresolvedLinks(blocks);
  if (bad.length === 0) return;
  const message = `${who} returned resource_link(s) that nothing serves: ${bad.join(', ')}. Register a resource or template for them, or use ctx.attach() so they go to the link store`;
  if (mode === 'warn') {
    (server.options.onWarning ?? console.warn)(`mcpkit: ${message}`);
    return;
  }
  throw ProtocolError.internal(message);
}

function toolError(text: string): Result {
  return { content: [{ type: 'text', text }], isError: true };
}

async function getPrompt(params: Params, { server, ctx }: MethodEnv): Promise<Result> {
  const name = params['name'] as string;
  const entry = server.prompts.get(name);
  if (!entry)
    throw ProtocolError.invalidParams(`Unknown prompt: ${JSON.stringify(name)}`, { name });
  const args = (params['arguments'] ?? {}) as Record<string, string>;
  for (const arg of entry.prompt.arguments ?? []) {
    if (arg.required && typeof args[arg.name] !== 'string') {
      throw ProtocolError.invalidParams(
        `prompts/get "${name}": argument "${arg.name}" is required`,
        {
          name,
          argument: arg.name,
        },
      );
    }
  }
  const value = await entry.handler(args, ctx);
  const result: GetPromptResult =
    typeof value === 'string'
      ? { messages: [{ role: 'user', content: { type: 'text', text: value } }] }
      : { ...value };
  await checkLinks(
    ctx,
    result.messages.map((m) => m.content),
    `prompt "${name}"`,
    server,
  );
  return result as unknown as Result;
}

/**
 * What a requestState is bound to: replaying it for other arguments, another target or another
 * authenticated caller fails verification.
 */
function boundTarget(method: string, target: unknown, args: unknown, authInfo: unknown): string {
  let caller: string;
  try {
    caller = canonicalJson(authInfo ?? null);
  } catch {
    caller = String(authInfo); // cyclic: auth info should be plain data
  }
  return `${method}\n${String(target)}\n${canonicalJson(args ?? {})}\n${caller}`;
}

/** A table lookup that never reaches Object.prototype (a client may name "constructor"). */
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

async function complete(params: Params, { server }: MethodEnv): Promise<Result> {
  const ref = params['ref'] as { type: string; name?: string; uri?: string };
  // Echo only what identifies the ref: never the client's whole object.
  const refData = {
    ref: {
      type: String(ref.type),
      ...(ref.name !== undefined ? { name: String(ref.name) } : {}),
      ...(ref.uri !== undefined ? { uri: String(ref.uri) } : {}),
    },
  };
  const argument = params['argument'] as { name: string; value: string };
  const context = {
    arguments: ((params['context'] as Params | undefined)?.['arguments'] ?? {}) as Record<
      string,
      string
    >,
  };
  let handler;
  if (ref.type === 'ref/prompt') {
    const entry = server.prompts.get(String(ref.name));
    if (!entry)
      throw ProtocolError.invalidParams(`Unknown prompt: ${JSON.stringify(ref.name)}`, refData);
    handler = own(entry.complete, argument.name);
  } else if (ref.type === 'ref/resource') {
    const uri = String(ref.uri);
    const entry =
      server.templates.get(uri) ?? server.templates.list().find((t) => t.parsed.match(uri));
    if (!entry && !server.resources.get(uri)) {
      throw ProtocolError.invalidParams(
        `No resource or template matches ${JSON.stringify(uri)}`,
        refData,
      );
    }
    handler = entry?.definition.complete
      ? own(entry.definition.complete, argument.name)
      : undefined;
  } else {
    throw ProtocolError.invalidParams(
      `params.ref.type must be "ref/prompt" or "ref/resource"`,
      refData,
    );
  }
  const raw = handler ? await handler(argument.value, context) : [];
  const all = Array.isArray(raw) ? { values: raw } : raw;
  const values = all.values.slice(0, 100);
  const completion: Result = { values };
  const total = all.total ?? (all.values.length > 100 ? all.values.length : undefined);
  if (total !== undefined) completion['total'] = total;
  if (all.hasMore !== undefined || all.values.length > 100)
    completion['hasMore'] = all.hasMore ?? true;
  return { completion };
}

async function listResources(params: Params, { server }: MethodEnv): Promise<Result> {
  const all: ListedResource[] = [...server.resources.wire()];
  for (const t of server.templates.list()) {
    if (t.definition.list) all.push(...(await t.definition.list()));
  }
  const page = paginate(
    all,
    (r) => r.uri,
    params['cursor'] as string | undefined,
    pageSize(server),
    'resources/list',
  );
  return page.nextCursor
    ? { resources: page.items, nextCursor: page.nextCursor }
    : { resources: page.items };
}

function lister<T>(
  field: string,
  method: string,
  items: (s: McpServer, era: RequestContext['era']) => readonly T[],
  key: (item: T) => string,
) {
  return async (params: Params, { server, ctx }: MethodEnv): Promise<Result> => {
    const page = paginate(
      items(server, ctx.era),
      key,
      params['cursor'] as string | undefined,
      pageSize(server),
      method,
    );
    return page.nextCursor
      ? { [field]: page.items, nextCursor: page.nextCursor }
      : { [field]: page.items };
  };
}

const legacyToolCache = new WeakMap<readonly Tool[], Tool[]>();

/** 2025-11-25 knows only object output schemas: other ones are left out of the listing. */
function legacyTools(tools: readonly Tool[]): readonly Tool[] {
  let out = legacyToolCache.get(tools);
  if (!out) {
    out = tools.map((t) => {
      if (t.outputSchema === undefined || t.outputSchema['type'] === 'object') return t;
      const { outputSchema: _dropped, ...rest } = t;
      return rest;
    });
    legacyToolCache.set(tools, out);
  }
  return out;
}

async function listen(params: Params, { server, ctx, notify }: MethodEnv): Promise<Result> {
  const id = ctx.requestId;
  const filter = server.listen.honoured((params['notifications'] ?? {}) as SubscriptionFilter, {
    resourceSubscriptions: true,
  });
  notify(frame('notifications/subscriptions/acknowledged', id, { notifications: filter }));
  await new Promise<void>((resolve) => {
    const done = (): void => {
      remove();
      resolve();
    };
    const remove = server.listen.add({ id, filter, notify, end: done });
    if (ctx.signal.aborted) done();
    else ctx.signal.addEventListener('abort', done, { once: true });
  });
  return { _meta: { [META.subscriptionId]: id } };
}

/** Methods both eras share, plus the modern-only ones. */
export const METHODS: Record<string, MethodSpec> = {
  'server/discover': {
    cache: 'list',
    run: async (_params, { server }) => {
      const result: Result = {
        supportedVersions: [...MODERN_VERSIONS],
        capabilities: server.capabilities(),
      };
      if (server.options.instructions !== undefined)
        result['instructions'] = server.options.instructions;
      return result;
    },
  },
  'tools/list': {
    cache: 'list',
    run: lister(
      'tools',
      'tools/list',
      (s, era) => (era === 'legacy' ? legacyTools(s.tools.wire()) : s.tools.wire()),
      (t) => t.name,
    ),
  },
  'prompts/list': {
    cache: 'list',
    run: lister(
      'prompts',
      'prompts/list',
      (s) => s.prompts.wire(),
      (p) => p.name,
    ),
  },
  'resources/templates/list': {
    cache: 'list',
    run: lister(
      'resourceTemplates',
      'resources/templates/list',
      (s) => s.templates.wire(),
      (t) => t.uriTemplate,
    ),
  },
  'resources/list': { cache: 'list', run: listResources },
  'resources/read': {
    cache: 'read',
    target: (p, auth) => boundTarget('resources/read', p['uri'], undefined, auth),
    run: readResourceMethod,
  },
  'tools/call': {
    target: (p, auth) => boundTarget('tools/call', p['name'], p['arguments'], auth),
    run: callTool,
  },
  'prompts/get': {
    target: (p, auth) => boundTarget('prompts/get', p['name'], p['arguments'], auth),
    run: getPrompt,
  },
  'completion/complete': { run: complete },
  'subscriptions/listen': { run: listen },
};

/** Methods of the 2026-07-28 era that 2025-11-25 does not have. */
export const MODERN_ONLY = new Set(['server/discover', 'subscriptions/listen']);
