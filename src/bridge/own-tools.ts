/**
 * The bridge's own tools for hosts that never read resources (`readsResources: false`):
 * `read_resource` and `list_resources`, renamed with a `bridge_` prefix (again, until free)
 * when the upstream has a tool of that name.
 */
import { ProtocolError } from '../errors/index.js';
import type { CallToolResult, Tool } from '../protocol/index.js';
import {
  LIST_RESOURCES_DESCRIPTION,
  LIST_RESOURCES_INPUT,
  listResourcesTool,
  READ_RESOURCE_DESCRIPTION,
  READ_RESOURCE_INPUT,
  readResourceTool,
  type ReadToolSource,
} from '../content/readable-links.js';
import { blockedLinkHost } from './rewrite/link-consent.js';

export const READ_TOOL = 'read_resource';
export const LIST_TOOL = 'list_resources';

/** `name`, or `bridge_name` (`bridge_bridge_name`, …) when the upstream already has it. */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  let out = name;
  while (taken.has(out)) out = `bridge_${out}`;
  return out;
}

export class OwnTools {
  readonly readName: string;
  readonly listName: string;
  readonly tools: readonly Tool[];

  constructor(
    upstreamNames: ReadonlySet<string>,
    private readonly source: ReadToolSource,
  ) {
    this.readName = freeName(READ_TOOL, upstreamNames);
    this.listName = freeName(LIST_TOOL, upstreamNames);
    const annotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
    this.tools = [
      {
        name: this.readName,
        description: READ_RESOURCE_DESCRIPTION,
        inputSchema: structuredClone(READ_RESOURCE_INPUT) as unknown as Tool['inputSchema'],
        annotations,
      },
      {
        name: this.listName,
        description: LIST_RESOURCES_DESCRIPTION,
        inputSchema: structuredClone(LIST_RESOURCES_INPUT) as unknown as Tool['inputSchema'],
        annotations,
      },
    ];
  }

  has(name: unknown): boolean {
    return name === this.readName || name === this.listName;
  }

  inputSchema(name: string): Tool['inputSchema'] | undefined {
    return this.tools.find((t) => t.name === name)?.inputSchema;
  }

  /** Runs one of the two; bad arguments are a tool error the model can read, as for any tool. */
  async call(name: string, args: unknown): Promise<CallToolResult> {
    const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
    const problem = name === this.readName ? readProblem(a) : listArgsProblem(a);
    if (problem)
      return {
        content: [{ type: 'text', text: `Invalid arguments for tool "${name}": ${problem}` }],
        isError: true,
      };
    try {
      return name === this.readName
        ? await readResourceTool(this.source, a)
        : await listResourcesTool(this.source, a);
    } catch (error) {
      const why =
        error instanceof ProtocolError
          ? `${error.message} (${error.code})`
          : error instanceof Error
            ? error.message
            : String(error);
      return { content: [{ type: 'text', text: `${name} failed: ${why}` }], isError: true };
    }
  }
}

function unknownKey(args: Record<string, unknown>, known: readonly string[]): string | undefined {
  const extra = Object.keys(args).find((k) => !known.includes(k));
  return extra === undefined ? undefined : `unknown argument "${extra}"`;
}

/** Bad arguments, or a URI whose host the SSRF guard refuses (never asked of the upstream). */
function readProblem(a: Record<string, unknown>): string | undefined {
  const problem = readArgsProblem(a);
  if (problem !== undefined) return problem;
  return blockedLinkHost(a['uri'] as string);
}

function readArgsProblem(a: Record<string, unknown>): string | undefined {
  if (typeof a['uri'] !== 'string' || a['uri'] === '') return 'uri must be a non-empty string';
  for (const key of ['offset', 'length'] as const) {
    const v = a[key];
    if (v === undefined) continue;
    const min = key === 'offset' ? 0 : 1;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
      return `${key} must be an integer, at least ${min}`;
  }
  return unknownKey(a, ['uri', 'offset', 'length']);
}

function listArgsProblem(a: Record<string, unknown>): string | undefined {
  for (const key of ['cursor', 'query'] as const)
    if (a[key] !== undefined && typeof a[key] !== 'string') return `${key} must be a string`;
  return unknownKey(a, ['cursor', 'query']);
}
