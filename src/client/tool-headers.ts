/**
 * `x-mcp-header` (SEP-2243): tool arguments a server wants mirrored into `Mcp-Param-*` headers.
 * A tool whose annotations break the rules is unusable over HTTP and is dropped from the list.
 */
import { McpKitError } from '../errors/index.js';
import { encodeHeaderValue } from '../protocol/index.js';
import type { Tool } from '../protocol/index.js';
import { shown } from './shown.js';

/** A mirrored argument: the property and the header name it goes to (without the prefix). */
export interface ParamHeader {
  property: string;
  header: string;
}

// RFC 9110 token characters: no space, colon, control or non-ASCII character.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(['string', 'integer', 'boolean']);

/** The mirrored arguments of a tool, or why its annotations are invalid. */
export function paramHeadersOf(tool: Tool): { headers: ParamHeader[] } | { problem: string } {
  const properties = tool.inputSchema?.['properties'];
  if (typeof properties !== 'object' || properties === null) return { headers: [] };
  const headers: ParamHeader[] = [];
  const seen = new Map<string, string>();
  for (const [property, schema] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof schema !== 'object' || schema === null || !('x-mcp-header' in schema)) continue;
    const header = (schema as Record<string, unknown>)['x-mcp-header'];
    const at = `inputSchema.properties[${shown(property)}]["x-mcp-header"]`;
    if (typeof header !== 'string' || header === '') {
      return { problem: `${at} must be a non-empty string` };
    }
    if (!TOKEN.test(header)) {
      return {
        problem: `${at} ${shown(header)} is not a valid header name (ASCII token characters only)`,
      };
    }
    const type = (schema as Record<string, unknown>)['type'];
    if (typeof type !== 'string' || !PRIMITIVE.has(type)) {
      return {
        problem: `${at} is on a property of type ${shown(type)}; only string, integer and boolean may be mirrored`,
      };
    }
    const key = header.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      return {
        problem: `${at} ${shown(header)} repeats the header of property ${shown(other)} (names are case-insensitive)`,
      };
    }
    seen.set(key, property);
    headers.push({ property, header });
  }
  return { headers };
}

/** The `Mcp-Param-*` headers of one call; null and absent arguments send no header. */
export function paramHeaderValues(
  headers: readonly ParamHeader[],
  args: Record<string, unknown> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!args) return out;
  for (const { property, header } of headers) {
    if (!Object.hasOwn(args, property)) continue;
    const value = args[property];
    if (typeof value === 'string') out[`Mcp-Param-${header}`] = encodeHeaderValue(value);
    else if (typeof value === 'number' || typeof value === 'boolean') {
      out[`Mcp-Param-${header}`] = String(value);
    }
  }
  return out;
}

/**
 * The most names of dropped tools remembered (to refuse a call to one with TOOL_REJECTED): a
 * server that lists ever new invalid tools would otherwise grow the set without end. The oldest
 * is forgotten first; a call to a forgotten one is sent, and the server answers for it.
 */
export const MAX_REJECTED_TOOLS = 1000;

/**
 * The `x-mcp-header` table of a server's tools, filled from `tools/list` (fetched once when a
 * call needs it, however many calls wait for it) and forgotten on `tools/list_changed`.
 */
export class ToolHeaderTable {
  private table: Map<string, ParamHeader[]> | undefined;
  private loading: Promise<Map<string, ParamHeader[]>> | undefined;
  private readonly rejected = new Set<string>();

  constructor(private readonly listTools: () => Promise<unknown>) {}

  /** A full tool list arrived (only valid tools are in it). */
  learn(tools: readonly Tool[]): void {
    this.table = new Map(tools.map((t) => [t.name, headersOf(t)]));
  }

  /** A tool was dropped from a list for its invalid annotations. */
  drop(name: string): void {
    this.rejected.delete(name); // a name dropped again is the newest
    this.rejected.add(name);
    if (this.rejected.size > MAX_REJECTED_TOOLS) {
      this.rejected.delete(this.rejected.values().next().value as string);
    }
  }

  /** The list changed: what it said, dropped tools included, is out of date. */
  forget(): void {
    this.table = undefined;
    this.rejected.clear();
  }

  /** TOOL_REJECTED for a tool dropped from the list (on any transport: the spec says drop it). */
  refuseDropped(name: string): void {
    if (this.rejected.has(name) && !(this.table?.has(name) ?? false)) {
      throw new McpKitError(
        'TOOL_REJECTED',
        `tool ${shown(name)} was dropped from tools/list: its x-mcp-header annotations are invalid (see client.warnings)`,
      );
    }
  }

  /**
   * The `Mcp-Param-*` headers of a call; TOOL_REJECTED for a tool dropped from the list. A list
   * being fetched is awaited within the call's own `limit` (its timeout and signal).
   */
  async headersFor(
    name: string,
    args: Record<string, unknown> | undefined,
    limit: CallLimit = {},
  ): Promise<Record<string, string>> {
    const table = this.table ?? (await within(this.load(), limit));
    this.refuseDropped(name);
    return paramHeaderValues(table.get(name) ?? [], args);
  }

  private load(): Promise<Map<string, ParamHeader[]>> {
    this.loading ??= this.listTools()
      .then(() => this.table ?? new Map<string, ParamHeader[]>())
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}

/** What bounds a call: its timeout (0: none) and its signal. */
/** `timeoutMs` less the time since `started` (at least 1 ms); no limit (0, Infinity) stays. */
export function timeLeft(timeoutMs: number, started: number): number {
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) return timeoutMs;
  return Math.max(1, Math.ceil(timeoutMs - (performance.now() - started)));
}

export interface CallLimit {
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/** `work`, or REQUEST_TIMEOUT / REQUEST_CANCELLED when the call's limit ends first. */
function within<T>(work: Promise<T>, { timeoutMs = 0, signal }: CallLimit): Promise<T> {
  const timed = timeoutMs > 0 && Number.isFinite(timeoutMs);
  if (!timed && !signal) return work;
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      stop();
      const cause = signal?.reason;
      reject(new McpKitError('REQUEST_CANCELLED', 'tools/call was cancelled', { cause }));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timed) {
      timer = setTimeout(() => {
        stop();
        const why = `tools/call got no answer within ${timeoutMs} ms (it waited for tools/list, for the tool's x-mcp-header annotations)`;
        reject(new McpKitError('REQUEST_TIMEOUT', why));
      }, timeoutMs);
    }
    work.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

function headersOf(tool: Tool): ParamHeader[] {
  const r = paramHeadersOf(tool);
  return 'headers' in r ? r.headers : [];
}
