/**
 * The Node request path of the HTTP client transport: `node:http`/`node:https` with a keep-alive
 * agent of its own, several times cheaper per request than Node's `fetch` (undici and web
 * streams). The modules come from `process.getBuiltinModule` (Node >= 20.16), never from an
 * import: this file loads in any runtime, and bundlers see no `node:*` specifier.
 */
import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';
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

/**
 * How long a connection in use may stay silent (waiting for headers, or between body chunks)
 * before it is given up: fetch's (undici's) `headersTimeout` and `bodyTimeout`.
 */
export const IDLE_TIMEOUT_MS = 300_000;
/** How long an idle pooled connection is kept (less when the server's Keep-Alive says so). */
const FREE_SOCKET_MS = 4000;

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
  return {
    http: load('node:http'),
    https: load('node:https'),
    zlib: () => load('node:zlib'),
  };
}

/** Requests over `node:http`/`node:https`, one keep-alive agent per scheme, made when needed. */
export class NodeRequester implements HttpRequester {
  private httpAgent: NodeHttp.Agent | undefined;
  private httpsAgent: NodeHttps.Agent | undefined;

  private readonly idleTimeoutMs: number;

  /** @param options.idleTimeoutMs how long a connection in use may stay silent (300 s). */
  constructor(
    private readonly modules: NodeModules,
    options: { idleTimeoutMs?: number } = {},
  ) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
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
    const secure = url.protocol === 'https:';
    const headers = request.headers;
    // A Buffer, not a string: node:http would then write the headers as UTF-8 with it, where
    // fetch sends their characters as bytes (latin1).
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    if (body !== undefined) headers['content-length'] = String(body.length);
    const options: NodeHttp.RequestOptions = {
      method: request.method,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: url.pathname + url.search,
      headers,
      agent: secure ? this.secureAgent() : this.plainAgent(),
    };
    const req = secure ? this.modules.https.request(options) : this.modules.http.request(options);
    return new Promise<HttpAnswer>((resolve, reject) => {
      let answer: NodeAnswer | undefined;
      const onAbort = (): void => {
        if (answer) answer.fail(signal.reason);
        else reject(signal.reason);
        req.destroy();
      };
      req.once('close', signal.listen(onAbort));
      req.on('error', (error) => {
        if (answer) answer.fail(error);
        else reject(signal.aborted ? signal.reason : error);
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

  close(): void {
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
    this.httpAgent = undefined;
    this.httpsAgent = undefined;
  }

  private plainAgent(): NodeHttp.Agent {
    this.httpAgent ??= new this.modules.http.Agent({ keepAlive: true, timeout: FREE_SOCKET_MS });
    return this.httpAgent;
  }

  private secureAgent(): NodeHttps.Agent {
    this.httpsAgent ??= new this.modules.https.Agent({ keepAlive: true, timeout: FREE_SOCKET_MS });
    return this.httpsAgent;
  }
}
