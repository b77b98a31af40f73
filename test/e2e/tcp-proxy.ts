/**
 * A small round-robin TCP proxy on 127.0.0.1 for the scale-out tests: each new client connection
 * goes to the next upstream that is up. An upstream that refuses the connection is skipped for
 * that client (the next one is tried), `drop(i)` takes one out and cuts its open connections, and
 * `close()` destroys every socket. It peeks at the `mcp-method` header of each request it forwards,
 * so a test can tell which upstream holds a long-lived request (a listen stream).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Upstream {
  host: string;
  port: number;
}

/** One client connection and where it went. */
export interface ProxiedConnection {
  /** Index of the upstream it was forwarded to (-1 while connecting). */
  upstream: number;
  /** The `mcp-method` of every request seen on it, in order. */
  methods: string[];
  open: boolean;
}

export class TcpProxy {
  readonly connections: ProxiedConnection[] = [];
  private readonly down = new Set<number>();
  private readonly sockets = new Set<Socket>();
  private readonly byUpstream = new Map<number, Set<Socket>>();
  private next = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly upstreams: Upstream[],
  ) {}

  static async start(upstreams: Upstream[]): Promise<TcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy: no port');
    const proxy = new TcpProxy(server, address.port, upstreams);
    server.on('connection', (socket) => proxy.accept(socket));
    return proxy;
  }

  /** `http://127.0.0.1:<port>/mcp`: the proxy in front of `serve --http` processes. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  /** Upstreams whose open connections carry a request of `method` as their latest one. */
  holding(method: string): number[] {
    const found = this.connections
      .filter((c) => c.open && c.methods[c.methods.length - 1] === method)
      .map((c) => c.upstream);
    return [...new Set(found)];
  }

  /** Takes upstream `index` out of the rotation and cuts every connection to it. */
  drop(index: number): void {
    this.down.add(index);
    for (const socket of this.byUpstream.get(index) ?? []) socket.destroy();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket, upstream?: number): void {
    this.sockets.add(socket);
    let set: Set<Socket> | undefined;
    if (upstream !== undefined) {
      set = this.byUpstream.get(upstream) ?? new Set();
      this.byUpstream.set(upstream, set);
      set.add(socket);
    }
    socket.once('close', () => {
      this.sockets.delete(socket);
      set?.delete(socket);
    });
  }

  private accept(client: Socket): void {
    this.track(client);
    const record: ProxiedConnection = { upstream: -1, methods: [], open: true };
    this.connections.push(record);
    const held: Buffer[] = [];
    const hold = (chunk: Buffer): void => {
      held.push(chunk);
    };
    client.on('data', hold);
    client.on('error', () => undefined);
    client.once('close', () => {
      record.open = false;
    });
    // Tries each upstream at most once, starting with the next in the rotation.
    const tried = new Set<number>();
    const attempt = (): void => {
      const index = this.pick(tried);
      if (index === undefined || client.destroyed) {
        client.destroy();
        return;
      }
      tried.add(index);
      const { host, port } = this.upstreams[index] as Upstream;
      const upstream = connect({ host, port });
      this.track(upstream, index);
      upstream.on('error', () => undefined);
      // Refused (or dropped while connecting): the next upstream gets this client.
      const retry = (): void => attempt();
      upstream.once('close', retry);
      upstream.once('connect', () => {
        if (this.down.has(index)) {
          upstream.destroy();
          return;
        }
        upstream.off('close', retry);
        record.upstream = index;
        this.track(client, index);
        client.off('data', hold);
        for (const chunk of held.splice(0)) this.forward(record, chunk, upstream, client);
        client.on('data', (chunk: Buffer) => this.forward(record, chunk, upstream, client));
        upstream.on('data', (chunk: Buffer) => {
          if (!client.write(chunk)) upstream.pause();
        });
        client.on('drain', () => upstream.resume());
        upstream.on('drain', () => client.resume());
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
      });
    };
    attempt();
  }

  private forward(
    record: ProxiedConnection,
    chunk: Buffer,
    upstream: Socket,
    client: Socket,
  ): void {
    for (const m of chunk.toString('latin1').matchAll(/\r\nmcp-method: *([^\r\n]*)/gi)) {
      record.methods.push((m[1] ?? '').trim());
    }
    if (!upstream.write(chunk)) client.pause();
  }

  private pick(tried: Set<number>): number | undefined {
    for (let i = 0; i < this.upstreams.length; i++) {
      const index = (this.next + i) % this.upstreams.length;
      if (this.down.has(index) || tried.has(index)) continue;
      this.next = index + 1;
      return index;
    }
    return undefined;
  }
}
