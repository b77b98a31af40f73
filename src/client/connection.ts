/**
 * The request engine under `McpClient`: ids, the table of requests in flight, timeouts,
 * cancellation and progress, and the routing of everything a transport delivers.
 */
import { McpKitError, ProtocolError } from '../errors/index.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
} from '../protocol/index.js';
import { Deadlines } from './deadlines.js';
import type { Deadline, Expirable } from './deadlines.js';
import type { ClientTransport, ClientTransportSink, SendOptions } from './transport.js';
import { shown } from './shown.js';

type Obj = Record<string, unknown>;

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface SendRequestOptions {
  signal?: AbortSignal;
  /** 0 or undefined with `longLived`: no timeout. */
  timeoutMs?: number;
  /** The timeout the caller set, when `timeoutMs` is what is left of it (messages name it). */
  budgetMs?: number;
  onProgress?: (progress: Progress) => void;
  headers?: Record<string, string>;
  longLived?: boolean;
  /** See `SendOptions.maxResponseBytes`. */
  maxResponseBytes?: number;
}

interface Pending {
  method: string;
  resolve(result: Obj): void;
  reject(error: Error): void;
  progressToken?: string;
  onProgress?: (progress: Progress) => void;
}

/**
 * One request in flight. A class rather than closures: it is its own abort listener and deadline
 * target, so a request allocates one object for all three.
 */
class PendingRequest implements Pending, Expirable {
  progressToken?: string;
  onProgress?: (progress: Progress) => void;
  deadline: Deadline | undefined;
  timeoutMs = 0;
  private settled = false;

  constructor(
    private readonly conn: Connection,
    readonly id: RequestId,
    readonly method: string,
    private readonly onResult: (result: Obj) => void,
    private readonly onError: (error: Error) => void,
    private readonly signal: AbortSignal | undefined,
  ) {}

  resolve(result: Obj): void {
    if (this.finish()) this.onResult(result);
  }

  reject(error: Error): void {
    if (this.finish()) this.onError(error);
  }

  /** The signal aborted. */
  handleEvent(): void {
    if (this.settled) return;
    this.conn.transport.cancel(this.id, 'cancelled by the client');
    this.reject(cancelled(this.method, this.signal as AbortSignal));
  }

  expire(): void {
    if (this.settled) return;
    this.conn.transport.cancel(this.id, `timed out after ${this.timeoutMs} ms`);
    this.reject(
      new McpKitError(
        'REQUEST_TIMEOUT',
        `${this.method} got no answer within ${this.timeoutMs} ms`,
      ),
    );
  }

  unsent(error: unknown): void {
    this.reject(
      error instanceof McpKitError
        ? error
        : new McpKitError('PEER_CLOSED', `${this.method} could not be sent: ${String(error)}`, {
            cause: error,
          }),
    );
  }

  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.deadline?.clear();
    this.signal?.removeEventListener('abort', this);
    this.conn.forget(this);
    return true;
  }
}

export interface ConnectionEvents {
  /** A notification no request claimed (listen frames, logs, legacy list changes). */
  notification(message: JSONRPCNotification): void;
  /** A 2025-11-25 server-to-client request. */
  serverRequest(message: JSONRPCRequest): void;
  warn(code: string, message: string): void;
  /** The transport closed; `error` says why. */
  closed(error: McpKitError): void;
}

export class Connection {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly byToken = new Map<string, Pending>();
  private closedError: McpKitError | undefined;
  private readonly deadlines = new Deadlines();

  constructor(
    readonly transport: ClientTransport,
    private readonly events: ConnectionEvents,
  ) {}

  async start(): Promise<void> {
    this.closedError = undefined;
    await this.transport.start(this.sink());
  }

  /** A fresh id: unique for the life of the client, across reconnects too. */
  allocateId(): number {
    return this.nextId++;
  }

  /**
   * Sends a request with `id` and resolves with its raw `result`. Rejects with a ProtocolError
   * for a JSON-RPC error, or an McpKitError (timeout, cancel, transport failure).
   */
  send(
    method: string,
    params: Obj,
    options: SendRequestOptions = {},
    id = this.allocateId(),
  ): {
    id: RequestId;
    done: Promise<Obj>;
  } {
    const done = new Promise<Obj>((resolve, reject) => {
      if (this.closedError) {
        reject(this.closedError);
        return;
      }
      const { signal, timeoutMs, onProgress } = options;
      if (signal?.aborted) {
        reject(cancelled(method, signal));
        return;
      }
      const entry = new PendingRequest(this, id, method, resolve, reject, signal);
      signal?.addEventListener('abort', entry, { once: true });
      // Infinity (or NaN) means no deadline, as 0 does.
      if (timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        entry.timeoutMs = options.budgetMs ?? timeoutMs;
        entry.deadline = this.deadlines.add(timeoutMs, entry);
      }
      let sendParams = params;
      if (onProgress) {
        const token = `mcpkit-${id}`;
        entry.progressToken = token;
        entry.onProgress = onProgress;
        this.byToken.set(token, entry);
        const meta = (params['_meta'] ?? {}) as Obj;
        sendParams = { ...params, _meta: { ...meta, progressToken: token } };
      }
      this.pending.set(id, entry);
      const message: JSONRPCRequest = { jsonrpc: '2.0', id, method, params: sendParams };
      const sendOptions: SendOptions = {};
      if (options.headers) sendOptions.headers = options.headers;
      if (options.longLived) sendOptions.longLived = true;
      if (options.maxResponseBytes !== undefined)
        sendOptions.maxResponseBytes = options.maxResponseBytes;
      let handedOver: Promise<void>;
      try {
        handedOver = this.transport.request(message, sendOptions);
      } catch (error) {
        // A transport that throws instead of rejecting must not leave the entry behind.
        handedOver = Promise.reject(error);
      }
      handedOver.catch((error: unknown) => entry.unsent(error));
    });
    return { id, done };
  }

  notify(method: string, params: Obj, headers?: Record<string, string>): Promise<void> {
    return this.transport.notify({ jsonrpc: '2.0', method, params }, headers ? { headers } : {});
  }

  /** @internal A request settled: it leaves the tables. */
  forget(entry: PendingRequest): void {
    if (this.pending.get(entry.id) === entry) this.pending.delete(entry.id);
    if (entry.progressToken !== undefined) this.byToken.delete(entry.progressToken);
  }

  /** Fails every request in flight (reconnect, close). */
  failAll(error: McpKitError): void {
    for (const entry of [...this.pending.values()]) entry.reject(error);
  }

  /** Gives up on a request the server ended itself (a listen it cancelled): nothing is sent. */
  abandon(id: RequestId, error: McpKitError): void {
    this.pending.get(id)?.reject(error);
  }

  private sink(): ClientTransportSink {
    return {
      message: (message) => this.route(message),
      requestFailed: (id, error) => {
        if (id === undefined) this.failAll(error);
        else this.pending.get(id)?.reject(error);
      },
      closed: (error) => {
        this.closedError = error;
        this.failAll(error);
        this.events.closed(error);
      },
      warn: (code, message) => this.events.warn(code, message),
    };
  }

  private route(message: JSONRPCMessage): void {
    if ('method' in message) {
      if ('id' in message && message.id !== undefined) {
        this.events.serverRequest(message as JSONRPCRequest);
        return;
      }
      const note = message as JSONRPCNotification;
      if (note.method === 'notifications/progress') {
        const token = note.params?.['progressToken'];
        const entry = typeof token === 'string' ? this.byToken.get(token) : undefined;
        if (entry?.onProgress) {
          const p = note.params as Obj;
          const progress: Progress = { progress: Number(p['progress']) };
          if (typeof p['total'] === 'number') progress.total = p['total'];
          if (typeof p['message'] === 'string') progress.message = p['message'];
          try {
            entry.onProgress(progress);
          } catch (error) {
            this.events.warn('HANDLER_FAILED', `onProgress threw: ${String(error)}`);
          }
          return;
        }
      }
      this.events.notification(note);
      return;
    }
    const entry = message.id === null ? undefined : this.pending.get(message.id);
    if (!entry) {
      this.events.warn(
        'UNKNOWN_RESPONSE',
        `an answer for id ${shown(message.id)}, which no request in flight has, was ignored`,
      );
      return;
    }
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      entry.reject(new ProtocolError(code, text, data));
    } else {
      entry.resolve((message.result ?? {}) as Obj);
    }
  }
}

function cancelled(method: string, signal: AbortSignal): McpKitError {
  return new McpKitError('REQUEST_CANCELLED', `${method} was cancelled`, { cause: signal.reason });
}
