/**
 * `createBridge`: connects to the upstream, then builds the downstream server in front of it.
 * Serve the server with any server transport (`serveStdio`, `serveHttp`).
 */
import { McpClient } from '../client/index.js';
import type {
  ClientTransport,
  InputHandlerContext,
  InputHandlers,
  McpClientOptions,
} from '../client/index.js';
import { ProtocolError } from '../errors/index.js';
import { BridgeServer, type BridgeOptions } from './bridge-server.js';
import { handlersFor, InputLanes } from './input-lanes.js';
import { Upstream } from './upstream.js';

type Obj = Record<string, unknown>;

export interface CreateBridgeOptions extends BridgeOptions {
  /** The upstream's transport (a spawned stdio server, or HTTP). */
  transport: ClientTransport;
  /** The upstream client's options: era, list bounds, clientInfo. */
  client?: Omit<McpClientOptions, 'transport' | 'handlers' | 'onNotification'>;
  onLog?: (line: string) => void;
  /**
   * Another transport to the same upstream (HTTP: same URL and sign-in). With `forwardInput` and
   * a 2025-11-25 upstream, a 2026-07-28 host that declares only some input capabilities gets an
   * upstream session declaring just those (see InputLanes); without it the main session serves.
   */
  moreTransport?: () => ClientTransport;
}

export interface Bridge {
  server: BridgeServer;
  upstream: Upstream;
  close(): Promise<void>;
}

const CAPABILITY: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * Connects to the upstream and returns the bridge. The upstream's input requests (2026-07-28
 * `input_required`, 2025-11-25 server-to-client requests) go to the host that made the request
 * when it declared the capability: as server-to-client requests to a 2025-11-25 host, as an
 * `input_required` result to a 2026-07-28 host; otherwise they fail with a clear error.
 */
export async function createBridge(options: CreateBridgeOptions): Promise<Bridge> {
  // The server is built once the upstream is connected; the hooks below run only after that.
  const built: { server?: BridgeServer } = {};
  const ask =
    (method: string) =>
    async (params: Obj, ctx: InputHandlerContext): Promise<never> => {
      // A 2025-11-25 upstream's request while a 2026-07-28 host's request is in flight.
      const call = built.server?.inputCall();
      if (call) return (await call.ask(method, params)) as never;
      const asker = built.server?.askerOf(ctx.signal);
      const peer = asker?.peer;
      const capability = CAPABILITY[method] as string;
      if (!asker || !peer?.session)
        throw new ProtocolError(
          -32601,
          `the upstream asked for ${method} outside a request the bridge can tie it to (a 2025-11-25 host's request, or a 2026-07-28 host's tools/call, prompts/get or resources/read while it is the only one in flight)`,
        );
      if (!(capability in peer.session.clientCapabilities))
        throw new ProtocolError(
          -32601,
          `the host does not support ${method} (no ${capability} capability)`,
        );
      // On the stream of the host's request that caused it (over HTTP, that POST's SSE stream).
      return (await peer.request(method, params, asker.send, ctx.signal)) as never;
    };
  const handlers: InputHandlers = {
    elicitation: ask('elicitation/create'),
    sampling: ask('sampling/createMessage'),
    roots: ask('roots/list'),
  };
  const onNotification = (note: { method: string; params?: Obj }): void =>
    built.server?.upstreamNotification(note);
  const more = options.moreTransport;
  const lanes =
    options.forwardInput && more
      ? new InputLanes(async (kinds) => {
          const client = new McpClient({
            ...options.client,
            era: 'legacy',
            transport: more(),
            handlers: handlersFor(handlers, kinds),
            onNotification,
          });
          await client.connect();
          return client;
        })
      : undefined;
  const upstream = new Upstream({
    ...options.client,
    transport: options.transport,
    ...(options.forwardInput ? { handlers } : {}),
    onNotification,
    onRestarted: () => void built.server?.restarted().catch(() => undefined),
    ...(options.onLog ? { onLog: options.onLog } : {}),
  });
  await upstream.connect();
  const server = new BridgeServer(upstream, {
    ...options,
    ...(lanes ? { laneFor: (caps: Obj) => lanes.client(caps) } : {}),
  });
  built.server = server;
  try {
    await server.start();
  } catch (error) {
    await lanes?.close();
    await upstream.close().catch(() => undefined);
    throw error;
  }
  return {
    server,
    upstream,
    close: async () => {
      server.close();
      await lanes?.close();
      await upstream.close();
    },
  };
}
