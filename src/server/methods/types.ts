import type { JSONRPCMessage } from '../../protocol/jsonrpc.js';
import type { ChannelFlow } from '../channel-flow.js';
import type { RequestContext } from '../context.js';
import type { ServerCore } from '../core.js';

export type Params = Record<string, unknown>;
export type Result = Record<string, unknown>;

/** What a method runs with: the server's core (never the McpServer class), the request's context, and its notify channel. */
export interface MethodEnv {
  core: ServerCore;
  ctx: RequestContext;
  notify: (message: JSONRPCMessage) => void;
  /** The backpressure of `notify`'s channel, when the transport reports it. */
  flow?: ChannelFlow | undefined;
}

/** One entry of the method table. */
export interface MethodSpec {
  /**
   * For methods that may answer `InputRequiredResult`: what a `requestState` is bound to
   * (method, target, arguments and the caller's identity).
   */
  target?: (params: Params, authInfo?: unknown) => string;
  run: (params: Params, env: MethodEnv) => Promise<Result>;
}

/** A table lookup that never reaches Object.prototype (a client may send "constructor"). */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
