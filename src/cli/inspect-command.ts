/**
 * `mcpkit inspect`: looks at any server as a host would. No verb: the discover (or initialize)
 * answer and every list, all pages; `read URI`; `prompt NAME [key=value…]`; `call TOOL [JSON]`.
 * Links met in a prompt or a tool result are read only as `--resolve` says.
 */
import type { McpClient } from '../client/index.js';
import { paginate } from '../client/lists.js';
import { isMcpKitError, isProtocolError } from '../errors/index.js';
import type { ListMethod } from '../protocol/methods.js';
import { decodeContents } from '../host/decode.js';
import type { HostArgs } from './host-args.js';
import { connectTarget, quotesStderr } from './host-connect.js';
import { blockJson, blocksOf, hostResolver, sha256 } from './host-resolve.js';
import { CLI_LIST_LIMIT_NAMES, cliListLimits } from './list-limits.js';
import { renderBlocks, renderOverview, renderRead, type ReadEntry } from './inspect-render.js';
import { UsageError } from './serve-command.js';
import { stderrSection } from './server-stderr.js';
import { shownText, terminalJson } from './terminal-text.js';

type Obj = Record<string, unknown>;
type Verb =
  | { kind: 'overview' }
  | { kind: 'read'; uri: string }
  | { kind: 'prompt'; name: string; arguments: Record<string, string> }
  | { kind: 'call'; name: string; arguments: Obj | undefined };

/** The verb words, checked before anything is started (bad usage is exit 2). */
export function parseVerb(words: readonly string[]): Verb {
  const [verb, ...rest] = words;
  if (verb === undefined) return { kind: 'overview' };
  if (verb === 'read') {
    if (rest.length !== 1)
      throw new UsageError('inspect read takes one URI: mcpkit inspect … read URI');
    return { kind: 'read', uri: rest[0] as string };
  }
  if (verb === 'prompt') {
    const [name, ...pairs] = rest;
    if (name === undefined)
      throw new UsageError('inspect prompt takes a prompt name: prompt NAME [key=value…]');
    const args: Record<string, string> = {};
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`inspect prompt: ${JSON.stringify(pair)} is not key=value`);
      args[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    return { kind: 'prompt', name, arguments: args };
  }
  if (verb === 'call') {
    const [name, json, ...extra] = rest;
    if (name === undefined || extra.length > 0)
      throw new UsageError(
        'inspect call takes a tool name and at most one JSON object: call TOOL [JSON]',
      );
    if (json === undefined) return { kind: 'call', name, arguments: undefined };
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new UsageError(
        `inspect call ${name}: the arguments are not JSON (${(error as Error).message})`,
      );
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new UsageError(
        `inspect call ${name}: the arguments must be a JSON object, got ${json}`,
      );
    return { kind: 'call', name, arguments: value as Obj };
  }
  throw new UsageError(
    `unknown inspect verb ${JSON.stringify(verb)} (expected read, prompt or call)`,
  );
}

/**
 * Every page of a list, within the list limits (LIST_TOO_LARGE or PAGE_LIMIT past them: exit
 * 1); a page that breaks its schema is taken as received (with a warning).
 */
async function listAll(client: McpClient, method: ListMethod, enabled: boolean, args: HostArgs) {
  const items: unknown[] = [];
  if (!enabled) return items;
  const pages = paginate<unknown>(
    method,
    async (cursor) => {
      const page = await asReceived((onRawResult) =>
        client.request(method, cursor === undefined ? {} : { cursor }, { onRawResult }),
      );
      // An empty cursor ends the list here, as most hosts take it.
      return page['nextCursor'] === '' ? { ...page, nextCursor: undefined } : page;
    },
    cliListLimits(args),
    { names: CLI_LIST_LIMIT_NAMES },
  );
  for await (const item of pages) items.push(item);
  return items;
}

async function overview(client: McpClient, args: HostArgs): Promise<Obj> {
  const caps = client.serverCapabilities ?? {};
  const has = (k: string): boolean => (caps as Obj)[k] !== undefined;
  return {
    era: client.protocolVersion,
    server: client.handshakeResult ?? { serverInfo: client.serverInfo, capabilities: caps },
    resources: await listAll(client, 'resources/list', has('resources'), args),
    resourceTemplates: await listAll(client, 'resources/templates/list', has('resources'), args),
    prompts: await listAll(client, 'prompts/list', has('prompts'), args),
    tools: await listAll(client, 'tools/list', has('tools'), args),
  };
}

/**
 * The checked result, or, when it breaks its schema, the result as received (with a warning):
 * the blocks that are fine still get their outcomes, the broken ones say what is wrong.
 */
async function asReceived(
  call: (onRawResult: (r: unknown) => void) => Promise<Obj>,
  keep: (r: unknown) => void = () => undefined,
): Promise<Obj> {
  let raw: unknown;
  try {
    return await call((r) => {
      raw = r;
      keep(r);
    });
  } catch (error) {
    const invalid = isMcpKitError(error) && error.code === 'INVALID_RESULT';
    if (!invalid || typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw error;
    process.stderr.write(`warning: ${shownText(error.message)}; shown as received\n`);
    return raw as Obj;
  }
}

async function read(client: McpClient, uri: string): Promise<{ json: Obj; entries: ReadEntry[] }> {
  let raw: unknown;
  const result = (await asReceived(
    (onRawResult) => client.readResource(uri, { onRawResult }),
    (r) => (raw = r),
  )) as { contents?: unknown[] };
  const entries: ReadEntry[] = [];
  const contents = (Array.isArray(result.contents) ? result.contents : []) as unknown[];
  for (let i = 0; i < contents.length; i++) {
    const decoded = await decodeContents(contents[i], `contents[${i}]`);
    if ('error' in decoded)
      entries.push({
        error: decoded.error,
        uri: String((contents[i] as unknown as Obj)?.['uri'] ?? ''),
      });
    else entries.push({ contents: decoded.contents, sha256: sha256([decoded.contents.bytes]) });
  }
  const json = {
    result: raw ?? result,
    // One entry per contents item, in order.
    contents: entries.map((e, i) => {
      if ('error' in e) return { uri: e.uri, error: e.error };
      const c = e.contents;
      const sent = (contents[i] as unknown as Obj)?.['mimeType'];
      return {
        uri: c.uri,
        ...(typeof sent === 'string' ? { mimeType: sent } : {}),
        bytes: c.size,
        sha256: e.sha256,
      };
    }),
  };
  return { json, entries };
}

async function withBlocks(
  client: McpClient,
  args: HostArgs,
  call: (onRawResult: (r: unknown) => void) => Promise<Obj>,
): Promise<{
  json: Obj;
  result: Obj;
  resolved: Awaited<ReturnType<ReturnType<typeof hostResolver>['resolver']['resolve']>>;
}> {
  let raw: unknown;
  const result = await asReceived(call, (r) => (raw = r));
  const { resolver, close } = hostResolver(client, args, args.resolve);
  try {
    const resolved = await resolver.resolve(blocksOf(result));
    return {
      json: { result: raw ?? result, blocks: resolved.blocks.map(blockJson) },
      result,
      resolved,
    };
  } finally {
    close();
  }
}

const write = (text: string): void =>
  void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** Runs the command: 0 with a result (a tool's `isError` included), 1 for an error answer or no connection. */
export async function runInspect(args: HostArgs): Promise<number> {
  const verb = parseVerb(args.verb);
  const warnings: string[] = [];
  let client: McpClient | undefined;
  let stderrOf: (() => string) | undefined;
  let failure: string | undefined;
  // The failure's message already quotes the server's stderr (a failed start, an exit).
  let stderrQuoted = false;
  try {
    client = await connectTarget(args, {
      clientName: 'mcpkit-inspect',
      onWarning: (w) => warnings.push(`${w.code}: ${w.message}`),
      onStderr: (read) => (stderrOf = read),
    });
    if (verb.kind === 'overview') {
      const data = await overview(client, args);
      write(args.json ? terminalJson(data) : renderOverview(data));
    } else if (verb.kind === 'read') {
      const { json, entries } = await read(client, verb.uri);
      write(args.json ? terminalJson(json) : renderRead(verb.uri, entries));
    } else {
      const c = client;
      const { json, resolved, result } = await withBlocks(client, args, (onRawResult) =>
        verb.kind === 'prompt'
          ? c.getPrompt(verb.name, verb.arguments, { onRawResult })
          : c.callTool(verb.name, verb.arguments, { onRawResult }),
      );
      const head =
        verb.kind === 'call'
          ? `tool ${shownText(verb.name)}${result['isError'] === true ? ' (isError: the tool reports a failure)' : ''}`
          : `prompt ${shownText(verb.name)}`;
      write(args.json ? terminalJson(json) : renderBlocks(head, resolved));
    }
    if (!args.json) for (const w of warnings) process.stderr.write(`warning: ${shownText(w)}\n`);
  } catch (error) {
    const unknown =
      client && verb.kind !== 'overview' && verb.kind !== 'read' && isProtocolError(error)
        ? await notListed(client, args, verb.kind === 'call' ? 'tool' : 'prompt', verb.name)
        : undefined;
    failure = unknown === undefined ? describeError(error) : `${unknown}; ${describeError(error)}`;
    stderrQuoted = quotesStderr(error);
  } finally {
    await client?.close().catch(() => undefined);
  }
  if (failure !== undefined) process.stderr.write(`mcpkit inspect: ${failure}\n`);
  // The server's stderr (read once it has exited, so that all of it is in): its real error.
  const stderr = stderrOf?.() ?? '';
  if ((failure !== undefined || args.verbose) && !stderrQuoted)
    process.stderr.write(stderrSection(stderr));
  return failure === undefined ? 0 : 1;
}

/**
 * Said in the client's words when a failed call or prompt names nothing the server lists (the
 * server's own error for it varies): undefined when it is listed, or the list cannot be had.
 */
async function notListed(
  client: McpClient,
  args: HostArgs,
  kind: 'tool' | 'prompt',
  name: string,
): Promise<string | undefined> {
  const method = kind === 'tool' ? 'tools/list' : 'prompts/list';
  const names: string[] = [];
  try {
    const pages = paginate<unknown>(
      method,
      (cursor) => client.request(method, cursor === undefined ? {} : { cursor }),
      cliListLimits(args),
    );
    for await (const item of pages) {
      const listed = (item as Obj | null)?.['name'];
      if (listed === name) return undefined;
      if (typeof listed === 'string') names.push(listed);
    }
  } catch {
    return undefined;
  }
  const shown = names.slice(0, 20).map((n) => JSON.stringify(n));
  const more = names.length > 20 ? `, … (${names.length} in all)` : '';
  return shownText(
    `unknown ${kind} ${JSON.stringify(name)}: the server lists no such ${kind} (${method}: ${shown.length > 0 ? `${shown.join(', ')}${more}` : 'none'})`,
  );
}

function describeError(error: unknown): string {
  if (isProtocolError(error)) {
    const data = error.data === undefined ? '' : ` ${JSON.stringify(error.data)}`;
    return shownText(`the server answered error ${error.code}: ${error.message}${data}`);
  }
  if (isMcpKitError(error)) return shownText(`${error.code}: ${error.message}`);
  return shownText(error instanceof Error ? error.message : String(error));
}
