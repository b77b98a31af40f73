/**
 * The Node request path of the HTTP client transport: `node:http`/`node:https` with a keep-alive
 * agent of its own, several times cheaper per request than Node's `fetch` (undici and web
 * streams). The modules come from `process.getBuiltinModule` (Node >= 20.16), never from an
 * import: this file loads in any runtime, and bundlers see no `node:*` specifier.
 */
import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';
import type { Socket } from 'node:net';
import type * as NodeZlib from 'node:zlib';
import type { HttpAnswer, HttpRequest, HttpRequester } from './client-requester.js';
import { NodeAnswer } from './node-answer.js';

/** The built-ins the Node path needs. */
export interface NodeModules {
  http: typeof NodeHttp;
  https: typeof NodeHttps;
  /** Loaded on the first compressed body only. */
  zlib: () => typeof NodeZlib;
}

/** How long a connection in use may stay silent: undici's `headersTimeout` and `bodyTimeout`. */
export const IDLE_TIMEOUT_MS = 300_000;
/** How long an idle pooled connection is kept (less when the server's Keep-Alive says so). */
const FREE_SOCKET_MS = 4000;
/**
 * A POST that fails on a reused connection this soon, no byte of answer read, is sent again on a
 * new one: the server closed the idle connection as it went out (keep-alive timeout, restart).
 * Later, the server may have acted on it, and a POST (a tool call) is not sent twice.
 */
export const STALE_RETRY_MS = 1000;
/** Connections per origin unless told otherwise (the transport's `maxSocketsPerOrigin`). */
const DEFAULT_MAX_SOCKETS = 16;
/** How a connection that the server already closed fails: reset, hang-up (EOF), broken pipe. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * The built-ins, when this is Node.js with `process.getBuiltinModule`; undefined elsewhere
 * (browsers, workers, Deno and Bun, whose own fetch is native and fast, older Node 20).
 */
export function nodeModules(): NodeModules | undefined {
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  const versions = proc?.versions as Record<string, string | undefined> | undefined;
  if (!versions?.['node'] || versions['bun'] || versions['deno']) return undefined;
  const load = proc?.getBuiltinModule;
  if (typeof load !== 'function') return undefined;
  return { http: load('node:http'), https: load('node:https'), zlib: () => load('node:zlib') };
}

/** Requests over `node:http`/`node:https`, one keep-alive agent per scheme, made when needed. */
export class NodeRequester implements HttpRequester {
  private httpAgent: NodeHttp.Agent | undefined;
  private httpsAgent: NodeHttps.Agent | undefined;

  private readonly idleTimeoutMs: number;
  private readonly staleRetryMs: number;
  private readonly maxSockets: number;

  /**
   * @param options.idleTimeoutMs how long a connection in use may stay silent (300 s).
   * @param options.staleRetryMs how soon a POST must fail on a reused connection to be sent
   *   again (1 s; GET and DELETE are always sent again).
   * @param options.maxSockets connections open at once per origin (16); more requests queue.
   */
  constructor(
    private readonly modules: NodeModules,
    options: { idleTimeoutMs?: number; staleRetryMs?: number; maxSockets?: number } = {},
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    this.staleRetryMs = options.staleRetryMs ?? STALE_RETRY_MS;
    this.maxSockets = options.maxSockets ?? DEFAULT_MAX_SOCKETS;
  }

  request(request: HttpRequest): Promise<HttpAnswer> {
    const { url, signal } = request;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (url.username !== '' || url.password !== '') {
      // What fetch says to such a URL; node:http would turn them into a Basic authorization.
      return Promise.reject(
        new TypeError('Request cannot be constructed from a URL that includes credentials'),
      );
    }
    // A Buffer, not a string: node:http would then write the headers as UTF-8 with it, where
    // fetch sends their characters as bytes (latin1).
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    if (body !== undefined) request.headers['content-length'] = String(body.length);
    return this.attempt(request, body, false);
  }

  close(): void {
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
    this.httpAgent = undefined;
    this.httpsAgent = undefined;
  }

  /**
   * One try of a request. One that fails on a pooled connection the server had closed
   * (ECONNRESET, "socket hang up") with nothing of an answer come is sent again once on a new
   * connection, as Node's docs (`reusedSocket`) and browsers do; POSTs only within STALE_RETRY_MS.
   */
  private attempt(
    request: HttpRequest,
    body: Buffer | undefined,
    retried: boolean,
  ): Promise<HttpAnswer> {
    const { url, signal } = request;
    const secure = url.protocol === 'https:';
    const headers = request.headers;
    const options: NodeHttp.RequestOptions = {
      method: request.method,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: url.pathname + url.search,
      headers,
      agent: this.agent(secure),
    };
    const req = secure ? this.modules.https.request(options) : this.modules.http.request(options);
    return new Promise<HttpAnswer>((resolve, reject) => {
      let answer: NodeAnswer | undefined;
      let socket: Socket | undefined;
      let readBefore = 0;
      let sentAt = 0;
      const onAbort = (): void => {
        if (answer) answer.fail(signal.reason);
        else reject(signal.reason);
        req.destroy();
      };
      req.once('close', signal.listen(onAbort));
      req.once('socket', (assigned: Socket) => {
        socket = assigned;
        readBefore = assigned.bytesRead;
        sentAt = Date.now();
      });
      req.on('error', (error) => {
        if (answer) return answer.fail(error);
        if (signal.aborted) return reject(signal.reason);
        const stale =
          !retried &&
          req.reusedSocket &&
          STALE_CODES.has((error as NodeJS.ErrnoException).code ?? '') &&
          socket?.bytesRead === readBefore &&
          (request.method !== 'POST' || Date.now() - sentAt <= this.staleRetryMs);
        if (!stale) return reject(error);
        // The idle connections pooled with it are as old, or older: none is reused.
        this.dropIdle(secure);
        resolve(this.attempt(request, body, true));
      });
      req.setTimeout(this.idleTimeoutMs, () => {
        const seconds = this.idleTimeoutMs / 1000;
        req.destroy(new Error(`no data from the server for ${seconds} s`));
      });
      req.once('response', (res: NodeHttp.IncomingMessage) => {
        answer = new NodeAnswer(req, res, this.modules.zlib);
        resolve(answer);
      });
      req.end(body);
    });
  }

  /** Closes the idle connections of an agent (the ones in use are left alone). */
  private dropIdle(secure: boolean): void {
    const agent = secure ? this.httpsAgent : this.httpAgent;
    for (const sockets of Object.values(agent?.freeSockets ?? {})) {
      for (const idle of sockets ?? []) idle.destroy();
    }
  }

  private agent(secure: boolean): NodeHttp.Agent {
    if (secure) return (this.httpsAgent ??= new this.modules.https.Agent(this.agentOptions()));
    return (this.httpAgent ??= new this.modules.http.Agent(this.agentOptions()));
  }

  /** The agent counts sockets per host, port and local address: per origin, for one transport. */
  private agentOptions(): NodeHttp.AgentOptions {
    const max = this.maxSockets;
    return { keepAlive: true, timeout: FREE_SOCKET_MS, maxSockets: max, maxFreeSockets: max };
  }
}
