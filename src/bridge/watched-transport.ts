/**
 * A client transport that tells the bridge when its connection ends on its own (the upstream
 * process exited), so that the bridge restarts it instead of failing every later request.
 */
import type { McpKitError } from '../errors/index.js';
import type { ClientTransport, ClientTransportSink, SendOptions } from '../client/index.js';
import type {
  Era,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '../protocol/index.js';

export class WatchedTransport implements ClientTransport {
  /** True while `close()` runs: an end asked for is not a loss. */
  private closing = false;

  constructor(
    private readonly inner: ClientTransport,
    private readonly lost: (error: McpKitError) => void,
  ) {}

  get kind(): ClientTransport['kind'] {
    return this.inner.kind;
  }
  get maxMessageBytes(): number {
    return this.inner.maxMessageBytes;
  }

  start(sink: ClientTransportSink): Promise<void> {
    this.closing = false;
    return this.inner.start({
      message: (m) => sink.message(m),
      requestFailed: (id, error) => sink.requestFailed(id, error),
      warn: (code, message) => sink.warn(code, message),
      closed: (error) => {
        sink.closed(error);
        if (!this.closing) this.lost(error);
      },
    });
  }
  setEra(era: Era, protocolVersion: string): void {
    this.inner.setEra(era, protocolVersion);
  }
  request(message: JSONRPCRequest, options?: SendOptions): Promise<void> {
    return this.inner.request(message, options);
  }
  notify(message: JSONRPCNotification, options?: SendOptions): Promise<void> {
    return this.inner.notify(message, options);
  }
  respond(message: JSONRPCResponse, options?: SendOptions): Promise<void> {
    return this.inner.respond(message, options);
  }
  cancel(id: RequestId, reason?: string): void {
    this.inner.cancel(id, reason);
  }
  openServerStream(
    headers?: Record<string, string>,
    options?: { timeoutMs?: number },
  ): Promise<void> {
    return this.inner.openServerStream(headers, options);
  }
  resetSession(): void {
    this.inner.resetSession();
  }
  async close(): Promise<void> {
    this.closing = true;
    await this.inner.close();
  }
}
