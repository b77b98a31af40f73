// Test support only: not part of the mcpkit package (excluded from the build and not published).
/** A scripted node:http server on 127.0.0.1 and a recording sink, for the HTTP client tests. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientTransportSink } from '../client/transport.js';
import type { McpKitError } from '../errors/index.js';
import type { JSONRPCMessage, RequestId } from '../protocol/jsonrpc.js';

export interface Recorded {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The parsed body (undefined for an empty or non-JSON one). */
  json: Record<string, unknown> | undefined;
  at: number;
}

export type Script = (recorded: Recorded, res: ServerResponse, req: IncomingMessage) => void;

export interface TestServer {
  url: string;
  origin: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** Serves `script` on an ephemeral 127.0.0.1 port; every request is recorded first. */
export async function serveScript(script: Script, path = '/mcp'): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> | undefined;
      try {
        json = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
      } catch {
        json = undefined;
      }
      const recorded = {
        method: req.method ?? '',
        headers: req.headers,
        body,
        json,
        at: Date.now(),
      };
      requests.push(recorded);
      script(recorded, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${path}`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function openSse(res: ServerResponse, headers = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
  res.flushHeaders();
}

export function sseData(message: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(message)}\n\n`;
}

export interface SinkRecord {
  sink: ClientTransportSink;
  messages: JSONRPCMessage[];
  failed: Array<{ id: RequestId | undefined; error: McpKitError }>;
  warnings: Array<{ code: string; message: string }>;
  closed: McpKitError[];
}

export function recordingSink(): SinkRecord {
  const record: Omit<SinkRecord, 'sink'> = { messages: [], failed: [], warnings: [], closed: [] };
  const sink: ClientTransportSink = {
    message: (m) => record.messages.push(m),
    requestFailed: (id, error) => record.failed.push({ id, error }),
    closed: (error) => record.closed.push(error),
    warn: (code, message) => record.warnings.push({ code, message }),
  };
  return { ...record, sink };
}
