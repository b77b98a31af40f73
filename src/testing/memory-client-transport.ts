// Test support only: a ClientTransport wired to a server in the same process (no bytes).
import { McpKitError } from '../errors/index.js';
import type { ClientTransport, ClientTransportSink } from '../client/transport.js';
import type { JSONRPCMessage, RequestId } from '../protocol/index.js';
import type { McpServer } from '../server/index.js';
import { connectInMemory, type MemoryConnection } from '../transports/memory.js';

export class MemoryClientTransport implements ClientTransport {
  readonly kind: 'stdio' | 'http';
  readonly maxMessageBytes = 33_554_432;
  readonly sent: JSONRPCMessage[] = [];
  readonly headers: Record<string, string>[] = [];
  private conn: MemoryConnection | undefined;
  private sink: ClientTransportSink | undefined;
  private readonly aborts = new Map<RequestId, AbortController>();

  constructor(
    private readonly server: McpServer,
    kind: 'stdio' | 'http' = 'stdio',
  ) {
    this.kind = kind;
  }

  start(sink: ClientTransportSink): Promise<void> {
    this.sink = sink;
    this.conn = connectInMemory(this.server);
    this.conn.onMessage = (m) => sink.message(m);
    return Promise.resolve();
  }

  setEra(): void {}

  async request(
    message: JSONRPCMessage & { id: RequestId },
    options?: { headers?: Record<string, string> },
  ): Promise<void> {
    const conn = this.live();
    this.sent.push(message);
    this.headers.push(options?.headers ?? {});
    const abort = new AbortController();
    this.aborts.set(message.id, abort);
    void conn.send(message, { signal: abort.signal }).then((response) => {
      this.aborts.delete(message.id);
      if (response && !abort.signal.aborted) this.sink?.message(response);
    });
  }

  async notify(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    await this.live().send(message);
  }

  async respond(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    await this.live().send(message);
  }

  cancel(id: RequestId): void {
    this.aborts.get(id)?.abort();
  }

  openServerStream(): Promise<void> {
    return Promise.resolve();
  }

  resetSession(): void {}

  async close(): Promise<void> {
    for (const a of this.aborts.values()) a.abort();
    this.conn?.close();
    this.conn = undefined;
    this.sink?.closed(new McpKitError('PEER_CLOSED', 'closed by the client'));
  }

  private live(): MemoryConnection {
    if (!this.conn) throw new McpKitError('PEER_CLOSED', 'not started');
    return this.conn;
  }
}
