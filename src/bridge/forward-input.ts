/**
 * A 2026-07-28 host's `tools/call`, `prompts/get` or `resources/read` sent to a 2025-11-25
 * upstream through the parking: the upstream's request stays open across the host's rounds,
 * on the upstream session (lane) for the capabilities the host declared.
 */
import type { McpClient, Progress } from '../client/index.js';
import type { Peer } from '../server/transport.js';
import { hostCapabilities } from './forward-request.js';
import { upstreamParams } from './forward-shape.js';
import type { ParkedInputs } from './parked-inputs.js';
import type { Upstream } from './upstream.js';

type Obj = Record<string, unknown>;

export interface ParkedForward {
  parking: ParkedInputs;
  upstream: Upstream;
  timeoutMs: number;
  laneFor?: ((capabilities: Obj) => Promise<McpClient | undefined>) | undefined;
}

export interface ParkedAsk {
  peer: Peer;
  method: string;
  params: Obj;
  signal: AbortSignal;
  authInfo: unknown;
  onProgress?: ((progress: Progress) => void) | undefined;
}

/** One round: the upstream's final result (and the client that gave it), or input_required. */
export async function forwardParked(
  to: ParkedForward,
  ask: ParkedAsk,
): Promise<{ result: Obj; client: McpClient | undefined }> {
  const { method, params, onProgress } = ask;
  const { inputResponses: _r, requestState: _s, ...plain } = params;
  let client: McpClient | undefined;
  const result = await to.parking.run({
    ...{ peer: ask.peer, method, params, signal: ask.signal, authInfo: ask.authInfo },
    ...(onProgress ? { progress: onProgress } : {}),
    capabilities: hostCapabilities(params),
    start: async (s, call) => {
      const lane = await to.laneFor?.(hostCapabilities(params));
      // The parking times each round and the wait for the host; the call spans them.
      const send = (c: McpClient): Promise<Obj> =>
        (client = c).request(method, upstreamParams(plain), {
          ...{ signal: s, timeoutMs: 0, cache: false },
          onProgress: (p) => call.progress(p),
        });
      return lane ? send(lane) : to.upstream.send(to.timeoutMs, send);
    },
  });
  return { result, client };
}
