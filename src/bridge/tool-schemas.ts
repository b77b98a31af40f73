/**
 * The input schemas of the upstream's tools as `tools/list` pages showed them, for the HTTP
 * edge's `Mcp-Param-*` check of a forwarded `tools/call`. Bounded as a host bounds one listing
 * (50,000 tools, 64 MiB of JSON), the least recently listed name first out: an upstream whose
 * tool names keep changing no longer grows it for ever, and names it stopped listing go.
 */
import { DEFAULT_MAX_LIST_BYTES, DEFAULT_MAX_LIST_ITEMS } from '../client/options.js';
import { utf8Length } from '../content/index.js';
import type { Tool } from '../protocol/index.js';

interface Kept {
  readonly schema: Tool['inputSchema'];
  readonly bytes: number;
}

export class ToolSchemas {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(
    private readonly maxNames = DEFAULT_MAX_LIST_ITEMS,
    private readonly maxBytes = DEFAULT_MAX_LIST_BYTES,
  ) {}

  get size(): number {
    return this.kept.size;
  }

  get(name: string): Tool['inputSchema'] | undefined {
    return this.kept.get(name)?.schema;
  }

  /** Keeps the tools of one listed page, as the newest (a schema alone over the bound is not). */
  setAll(tools: readonly Tool[]): void {
    for (const { name, inputSchema } of tools) {
      this.delete(name);
      // Parsed from the upstream's JSON answer: no cycle, so it always has a length.
      const bytes = utf8Length(JSON.stringify(inputSchema ?? null)) + utf8Length(name);
      if (bytes > this.maxBytes || this.maxNames < 1) continue;
      while (this.kept.size >= this.maxNames || this.bytes + bytes > this.maxBytes) {
        const [oldest] = this.kept.keys();
        this.delete(oldest as string);
      }
      this.kept.set(name, { schema: inputSchema, bytes });
      this.bytes += bytes;
    }
  }

  private delete(name: string): void {
    const kept = this.kept.get(name);
    if (kept === undefined) return;
    this.kept.delete(name);
    this.bytes -= kept.bytes;
  }
}
