/**
 * `mcpkit serve --http` with its hardening flags, as a real process on a real socket: the
 * limits reach the server and answer as documented.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpServe } from './serve-harness.js';

let dir: string;
let served: HttpServe;

const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

function initialize(id: number) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'limits', version: '1' },
    },
  };
}

async function post(body: unknown, headers: Record<string, string>) {
  const response = await fetch(served.url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { response, json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** Sends the start of a request by hand and resolves with whatever the server answers. */
function stalledBody(url: string, declared: number, sent: number): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          'Content-Type: application/json\r\nAccept: application/json\r\n' +
          `Content-Length: ${declared}\r\n\r\n${'{'.padEnd(sent, ' ')}`,
      );
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, 10_000).unref();
  });
}

/** One raw request on its own socket (HTTP/1.0 closes after the answer); resolves with it all. */
function rawRequest(url: string, head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\n\r\n${body}`));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-limits-'));
  await writeFile(join(dir, 'a.md'), '# A\n');
  served = await HttpServe.start([
    dir,
    '--quiet',
    '--max-sessions',
    '2',
    '--body-timeout',
    '300ms',
  ]);
});

afterAll(async () => {
  await served?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('mcpkit serve --http with limits', () => {
  it('--max-sessions: a new session closes the least recently used idle one', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const { response } = await post(initialize(i), LEGACY_HEADERS);
      expect(response.status).toBe(200);
      ids.push(response.headers.get('mcp-session-id') as string);
    }
    const ping = (session: string) =>
      post(
        { jsonrpc: '2.0', id: 9, method: 'ping' },
        { ...LEGACY_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      );
    expect((await ping(ids[0] as string)).response.status).toBe(404);
    expect((await ping(ids[2] as string)).json).toMatchObject({ id: 9, result: {} });
  });

  it('--body-timeout: a body that stalls gets 408 and a JSON-RPC error', async () => {
    const answer = await stalledBody(served.url, 1000, 10);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/"jsonrpc":"2\.0"/);
  });

  it('refuses a Content-Type other than application/json (charset=utf-8 at most) with 415', async () => {
    const body = JSON.stringify(initialize(1));
    for (const type of ['application/json-patch+json', 'application/json; charset=utf-16']) {
      const { response, json } = await post(body, { ...LEGACY_HEADERS, 'content-type': type });
      expect(response.status).toBe(415);
      expect(json).toMatchObject({ error: { code: -32600 } });
    }
    const ok = await post(body, {
      ...LEGACY_HEADERS,
      'content-type': 'Application/JSON; Charset=UTF-8',
    });
    expect(ok.response.status).toBe(200);
  });

  it('refuses an HTTP/1.0 request without Host with 400; with Host it is served', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    });
    const { host, pathname } = new URL(served.url);
    const head = (withHost: boolean) =>
      [
        `POST ${pathname} HTTP/1.0`,
        ...(withHost ? [`Host: ${host}`] : []),
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        'MCP-Protocol-Version: 2026-07-28',
        'Mcp-Method: server/discover',
        `Content-Length: ${Buffer.byteLength(body)}`,
      ].join('\r\n');
    const refused = await rawRequest(served.url, head(false), body);
    expect(refused).toMatch(/^HTTP\/1\.[01] 400 /);
    expect(refused).toContain('no Host header');
    expect(refused).toContain('allowedHosts');
    const get = await rawRequest(served.url, `GET ${pathname} HTTP/1.0`);
    expect(get).toMatch(/^HTTP\/1\.[01] 400 /);
    const served200 = await rawRequest(served.url, head(true), body);
    expect(served200).toMatch(/^HTTP\/1\.[01] 200 /);
    expect(served200).toContain('"result"');
  });

  it('refuses an integer id beyond 2^53 rather than answer a rounded one', async () => {
    const { response, json } = await post(
      '{"jsonrpc":"2.0","id":18446744073709551617,"method":"tools/list","params":{}}',
      LEGACY_HEADERS,
    );
    expect(response.status).toBe(400);
    expect(json).toMatchObject({ id: null, error: { code: -32600 } });
    expect(JSON.stringify(json)).toContain('9007199254740991');
  });
});
