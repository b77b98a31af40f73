/**
 * One POST per message, answers as JSON or SSE, 2025-11-25 sessions and stream resumption; all
 * through a requester (client-requester.ts), so there is no `node:*` import here.
 */
import type {
  ClientTransport,
  ClientTransportKind,
  ClientTransportSink,
  SendOptions,
} from '../../../client/transport.js';
import { McpKitError, isMcpKitError } from '../../../errors/index.js';
import type { Era } from '../../../protocol/index.js';
import {
  isResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from '../../../protocol/jsonrpc.js';
import { Abort } from './client-abort.js';
import { discardBody, readCappedBody } from './client-body.js';
import { asKitError, interruptedError, statusError, tooLargeError } from './client-failures.js';
import type { HttpStatusError } from './client-failures.js';
import { decodeInbound } from './client-inbound.js';
import { ClientLink, JSON_TYPE, SSE_TYPE, contentType, isOk } from './client-link.js';
import {
  SERVER_STREAM_WAIT_MS,
  resolveClientOptions,
  type HttpClientOptions,
} from './client-options.js';
import type { HttpAnswer } from './client-requester.js';
import { runServerStream } from './client-server-stream.js';
import { VERSION_HEADER } from './client-session.js';
import { pumpSse } from './client-sse-pump.js';
import { SseDecoder, type SseEvent } from './client-sse-reader.js';
import { reconnectDelay, sleep } from './client-wait.js';

/** One request in flight: its POST, then its stream and the stream's resumptions. */
interface Flight {
  readonly id: RequestId;
  readonly sink: ClientTransportSink;
  readonly controller: Abort;
  /** The headers the core computed; resumption GETs reuse their MCP-Protocol-Version. */
  readonly headers: Record<string, string>;
  /** Answered, failed or cancelled: nothing more is reported for it. */
  done: boolean;
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** The most bytes of its answer read: the transport's cap, or less when the request set it. */
  readonly cap: number;
}

/**
 * A `ClientTransport` for Streamable HTTP (2026-07-28 and 2025-11-25). On Node.js it requests
 * over `node:http`/`node:https` with a keep-alive agent, elsewhere (or given `fetch`) over web
 * fetch: see `requester` in the options.
 *
 * @example
 * const transport = new HttpClientTransport({
 *   url: 'https://example.com/mcp',
 *   headers: { authorization: `Bearer ${token}` },
 * });
 */
export class HttpClientTransport implements ClientTransport {
  readonly kind: ClientTransportKind = 'http';
  readonly maxMessageBytes: number;
  private readonly link: ClientLink;
  private readonly flights = new Map<RequestId, Flight>();
  /** Notifications and responses being POSTed, and the GET stream: aborted on close. */
  private readonly others = new Set<Abort>();
  private serverStream: Abort | undefined;
  private sink: ClientTransportSink | undefined;

  constructor(options: HttpClientOptions) {
    this.link = new ClientLink(resolveClientOptions(options));
    this.maxMessageBytes = this.link.options.maxResponseBytes;
  }

  /** The 2025-11-25 session id the server gave, if any. */
  get sessionId(): string | undefined {
    return this.link.session.sessionId;
  }

  async start(sink: ClientTransportSink): Promise<void> {
    this.sink = sink;
  }

  setEra(era: Era, protocolVersion: string): void {
    this.link.session.era = era;
    this.link.session.protocolVersion = protocolVersion;
  }

  async request(message: JSONRPCRequest, options: SendOptions = {}): Promise<void> {
    const sink = this.live();
    const body = JSON.stringify(message);
    const flight: Flight = {
      id: message.id,
      sink,
      controller: new Abort(),
      headers: options.headers ?? {},
      done: false,
      lastEventId: undefined,
      retryMs: undefined,
      cap: answerCap(options.maxResponseBytes, this.link.options.maxResponseBytes),
    };
    this.flights.set(message.id, flight);
    void this.run(flight, body, message.method === 'initialize');
  }

  notify(message: JSONRPCNotification, options: SendOptions = {}): Promise<void> {
    return this.sendOneWay(message, options);
  }

  respond(message: JSONRPCResponse, options: SendOptions = {}): Promise<void> {
    return this.sendOneWay(message, options);
  }

  cancel(id: RequestId, reason?: string): void {
    const flight = this.flights.get(id);
    if (!flight) return;
    this.settle(flight);
    flight.controller.abort();
    // A 2025-11-25 server does not take a closed stream for a cancellation: it is told.
    if (this.link.session.era === 'legacy') {
      const params = reason === undefined ? { requestId: id } : { requestId: id, reason };
      const headers = pick(flight.headers, VERSION_HEADER);
      const cancelled = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params };
      this.sendOneWay(cancelled, { headers }).catch(() => undefined);
    }
  }

  /**
   * Opens the 2025-11-25 GET stream; resolves once the server answered it, or after
   * `options.timeoutMs` (at most 10 s) with a warning: the GET then stays pending, and the
   * stream opens whenever its answer comes (the requester's idle timeout ends a dead one).
   */
  async openServerStream(
    headers: Record<string, string> = {},
    options: { timeoutMs?: number } = {},
  ): Promise<void> {
    const sink = this.live();
    if (this.link.session.era !== 'legacy') return;
    this.serverStream?.abort();
    const controller = new Abort();
    this.serverStream = controller;
    this.others.add(controller);
    const deliver = (event: SseEvent): void => this.deliver(sink, event, 'the GET stream');
    const given = options.timeoutMs ?? 0;
    const waitMs = given > 0 ? Math.min(given, SERVER_STREAM_WAIT_MS) : SERVER_STREAM_WAIT_MS;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        sink.warn(
          'REQUEST_TIMEOUT',
          `GET ${this.link.shownUrl}: no answer to the GET stream within ${waitMs} ms; going on ` +
            'without it until it comes (server-to-client messages wait until then)',
        );
        resolve();
      }, waitMs);
      const ready = (): void => {
        clearTimeout(timer);
        resolve();
      };
      void runServerStream(this.link, sink, controller, headers, ready, deliver).finally(() => {
        this.others.delete(controller);
        ready();
      });
    });
  }

  resetSession(): void {
    this.link.session.reset();
  }

  async close(): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    this.sink = undefined;
    for (const flight of this.flights.values()) {
      flight.done = true;
      flight.controller.abort();
    }
    this.flights.clear();
    for (const controller of this.others) controller.abort();
    this.others.clear();
    this.serverStream = undefined;
    await this.link.endSession();
    this.link.session.clear();
    this.link.options.requester.close();
    sink.closed(new McpKitError('PEER_CLOSED', 'closed by the client'));
  }

  private live(): ClientTransportSink {
    if (this.sink) return this.sink;
    throw new McpKitError('NOT_CONNECTED', 'the HTTP client transport is not started (or closed)');
  }

  /** The POST of a request, and its answer. */
  private async run(flight: Flight, body: string, initialize: boolean): Promise<void> {
    try {
      // After a 404 only `initialize` goes out: anything else would carry no session id.
      const expired = initialize ? undefined : this.link.expiredFailure('POST');
      if (expired) return this.fail(flight, expired);
      const sent = this.link.session.header;
      const response = await this.link.post(flight.headers, body, flight.controller);
      this.link.capture(flight.sink, response, initialize);
      if (response.status >= 400) {
        const failure = await this.link.statusFailure(
          'POST',
          response,
          sent,
          flight.id,
          flight.cap,
        );
        if (isMcpKitError(failure)) return this.fail(flight, failure);
        this.settle(flight);
        return flight.sink.message(failure);
      }
      const type = contentType(response);
      if (type === SSE_TYPE) return await this.readStream(flight, response);
      if (type === JSON_TYPE) return await this.readJson(flight, response);
      await discardBody(response);
      const what = type === '' ? 'no body' : `Content-Type ${type}`;
      const message =
        `POST ${this.link.shownUrl} answered ${response.status} with ${what} to request ` +
        `${String(flight.id)}: expected application/json or text/event-stream`;
      this.fail(flight, statusError('HTTP_ERROR', message, response.status));
    } catch (error) {
      if (!flight.done) this.fail(flight, asKitError(error, 'POST', this.link.options.url));
    }
  }

  private async readJson(flight: Flight, response: HttpAnswer): Promise<void> {
    const body = await readCappedBody(response, flight.cap);
    if (body.tooLarge)
      return this.fail(flight, tooLargeError(this.link, flight.id, 'the JSON answer', flight.cap));
    const inbound = decodeInbound(body.text, this.link.options.maxDepth);
    if (inbound.kind === 'failed') return this.fail(flight, inbound.error);
    if (inbound.kind === 'message') {
      const message = inbound.message;
      if (isResponse(message) && message.id === flight.id) {
        this.settle(flight);
        return flight.sink.message(message);
      }
      flight.sink.message(message);
    }
    const why = inbound.kind === 'garbage' ? inbound.reason : 'another message than its response';
    const text = `POST ${this.link.shownUrl} answered request ${String(flight.id)} with ${why}`;
    this.fail(flight, new McpKitError('INVALID_RESPONSE', text));
  }

  /**
   * Reads a request's SSE stream until its response. A 2025-11-25 stream that ends early after
   * an event id is resumed: after `retry:` ms, a GET with `Last-Event-ID` continues it.
   */
  private async readStream(flight: Flight, first: HttpAnswer): Promise<void> {
    const where = `the stream of request ${String(flight.id)}`;
    let response: HttpAnswer | undefined = first;
    let misses = 0;
    let cause: unknown;
    for (;;) {
      let progressed = false;
      if (response) {
        const decoder = new SseDecoder(flight.cap);
        const end = await pumpSse(response, decoder, (event) => {
          progressed = true;
          this.deliver(flight.sink, event, where);
          return flight.done;
        });
        if (decoder.lastEventId !== undefined && decoder.lastEventId !== flight.lastEventId) {
          progressed = true;
          flight.lastEventId = decoder.lastEventId;
        }
        flight.retryMs = decoder.retryMs ?? flight.retryMs;
        if (flight.done) return;
        if (end.kind === 'too-large') {
          return this.fail(
            flight,
            tooLargeError(this.link, flight.id, 'an SSE event of the answer', flight.cap),
          );
        }
        cause = end.kind === 'broken' ? end.cause : undefined;
      }
      // 2026-07-28 has no resumption; a 2025-11-25 stream needs an event id to resume from.
      if (this.link.session.era !== 'legacy' || flight.lastEventId === undefined) {
        return this.fail(flight, interruptedError(this.link, flight, cause, false));
      }
      misses = progressed ? 1 : misses + 1;
      if (misses > this.link.options.maxReconnects) {
        return this.fail(flight, interruptedError(this.link, flight, cause, true));
      }
      if (!(await sleep(reconnectDelay(flight.retryMs), flight.controller))) return;
      response = await this.resume(flight);
      if (flight.done) return;
    }
  }

  /** The GET that continues a request's stream; undefined when it could not be made. */
  private async resume(flight: Flight): Promise<HttpAnswer | undefined> {
    const expired = this.link.expiredFailure('GET');
    if (expired) {
      this.fail(flight, expired);
      return undefined;
    }
    const sent = this.link.session.header;
    const version = pick(flight.headers, VERSION_HEADER);
    let response: HttpAnswer;
    try {
      response = await this.link.get(version, flight.lastEventId, flight.controller);
    } catch {
      return undefined;
    }
    if (isOk(response) && contentType(response) === SSE_TYPE) return response;
    // The server cannot continue it (405, 400, 404): the request is lost.
    this.fail(flight, await this.link.streamFailure(response, sent));
    return undefined;
  }

  /** Hands one event's message to the sink, settling the request it answers. */
  private deliver(sink: ClientTransportSink, event: SseEvent, where: string): void {
    const inbound = decodeInbound(event.data, this.link.options.maxDepth);
    if (inbound.kind === 'garbage') {
      return sink.warn('INVALID_MESSAGE', `skipped an SSE event on ${where}: ${inbound.reason}`);
    }
    if (inbound.kind === 'failed') {
      const flight = this.flights.get(inbound.id);
      if (flight) return this.fail(flight, inbound.error);
      return sink.requestFailed(inbound.id, inbound.error);
    }
    const message = inbound.message;
    if (isResponse(message) && message.id !== null) {
      // An answer may come on another stream than its POST's: that request is done either way.
      const flight = this.flights.get(message.id);
      if (flight) {
        this.settle(flight);
        flight.controller.abort();
      }
    }
    sink.message(message);
  }

  /** POSTs a notification or a response; resolves once the server took it (202). */
  private async sendOneWay(message: JSONRPCMessage, options: SendOptions): Promise<void> {
    const sink = this.live();
    const expired = this.link.expiredFailure('POST');
    if (expired) throw expired;
    const controller = new Abort();
    this.others.add(controller);
    try {
      const sent = this.link.session.header;
      const body = JSON.stringify(message);
      const response = await this.link.post(options.headers ?? {}, body, controller);
      this.link.capture(sink, response, false);
      if (response.status >= 400) {
        throw (await this.link.statusFailure('POST', response, sent)) as HttpStatusError;
      }
      // Nothing is owed for a notification or a response: a body, if any, is dropped.
      await discardBody(response);
    } catch (error) {
      if (controller.aborted) throw new McpKitError('PEER_CLOSED', 'closed by the client');
      throw asKitError(error, 'POST', this.link.options.url);
    } finally {
      this.others.delete(controller);
    }
  }

  /** Marks a request done (answered or cancelled): nothing more is reported for it. */
  private settle(flight: Flight): void {
    flight.done = true;
    if (this.flights.get(flight.id) === flight) this.flights.delete(flight.id);
  }

  private fail(flight: Flight, error: McpKitError): void {
    if (flight.done) return;
    this.settle(flight);
    // Aborting releases the connection: nothing more of this answer is read.
    flight.controller.abort();
    flight.sink.requestFailed(flight.id, error);
  }
}

/** A request's own limit counts only below the transport's cap. */
function answerCap(asked: number | undefined, cap: number): number {
  return asked !== undefined && asked > 0 && asked < cap ? Math.floor(asked) : cap;
}

/** The value of one header (any case) of a computed set, as a set of its own. */
function pick(headers: Record<string, string>, name: string): Record<string, string> {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return { [name]: value };
  }
  return {};
}
