/**
 * `mcpkit serve --http [IPv6]:PORT` (the built CLI): the Host and Origin checks accept the
 * address it is bound to, as a client writes it (in brackets), so the URL it prints can be used.
 * Bound to `::` (every interface, loopback included), the printed URL is http://[::]:PORT/mcp.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, EXAMPLE_DIR, MODERN, ROOT, stopChild } from './serve-harness.js';

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => stopChild(child)));
});

async function serveAt(address: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', EXAMPLE_DIR, '--http', address, '--insecure-no-auth', '-q'],
    { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
}

const discover = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'server/discover',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'ipv6-e2e', version: '0.0.1' },
        },
      },
    }),
  });

describe('serve --http on an IPv6 address', () => {
  it('answers at the URL it prints, Host and Origin naming the address in brackets', async () => {
    const url = await serveAt('[::]:0');
    expect(url).toMatch(/^http:\/\/\[::\]:\d+\/mcp$/);
    const answer = await discover(url);
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
    const origin = new URL(url).origin;
    const withOrigin = await discover(url, { origin });
    expect(withOrigin.status).toBe(200);
    await withOrigin.body?.cancel();
    // Still guarded: another name is refused.
    const rebound = await discover(url, { origin: 'http://evil.example' });
    expect(rebound.status).toBe(403);
    await rebound.body?.cancel();
  });
});
