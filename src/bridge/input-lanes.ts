/**
 * A 2025-11-25 upstream learns its client's capabilities once, at `initialize`; a 2026-07-28 host
 * declares them on each request. So that the upstream asks for, and requires, only what the host
 * can answer, the bridge opens one more upstream session per set of input capabilities such hosts
 * declare (elicitation, sampling, roots: at most seven sets besides the main session's three),
 * when it can reach the upstream again (HTTP); a session that dropped is opened anew.
 */
import type { InputHandlers, McpClient } from '../client/index.js';

type Obj = Record<string, unknown>;

export const INPUT_KINDS = ['elicitation', 'sampling', 'roots'] as const;
export type InputKind = (typeof INPUT_KINDS)[number];

/** The input capabilities a host declared (objects, as the schema has them). */
export function inputKinds(capabilities: Obj): InputKind[] {
  return INPUT_KINDS.filter((kind) => {
    const value = capabilities[kind];
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  });
}

/** The handlers for just these kinds (what the session declares is what it has handlers for). */
export function handlersFor(handlers: InputHandlers, kinds: readonly InputKind[]): InputHandlers {
  const out: InputHandlers = {};
  for (const kind of kinds) if (handlers[kind]) Object.assign(out, { [kind]: handlers[kind] });
  return out;
}

export class InputLanes {
  private readonly lanes = new Map<string, Promise<McpClient>>();
  private closed = false;

  constructor(private readonly open: (kinds: InputKind[]) => Promise<McpClient>) {}

  /**
   * The session for a host that declared `capabilities`, or undefined when the main session
   * (which declares all three) is the one.
   */
  async client(capabilities: Obj): Promise<McpClient | undefined> {
    const kinds = inputKinds(capabilities);
    if (kinds.length === INPUT_KINDS.length || this.closed) return undefined;
    const key = kinds.join(',');
    let lane = this.lanes.get(key);
    if (lane !== undefined) {
      const client = await lane.catch(() => undefined);
      if (client?.connected) return client;
      if (this.lanes.get(key) === lane) this.lanes.delete(key);
      lane = undefined;
    }
    lane = this.open(kinds);
    this.lanes.set(key, lane);
    lane.catch(() => {
      if (this.lanes.get(key) === lane) this.lanes.delete(key);
    });
    return lane;
  }

  async close(): Promise<void> {
    this.closed = true;
    const lanes = [...this.lanes.values()];
    this.lanes.clear();
    await Promise.all(lanes.map((lane) => lane.then((c) => c.close()).catch(() => undefined)));
  }
}
