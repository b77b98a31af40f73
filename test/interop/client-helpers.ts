/**
 * Shared by the McpClient interop tests against third-party servers: spawning a server that
 * prints "listening <url>", stopping it, checking that a process is gone, and the client's
 * transports built the same way for every server.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { McpClient, type ClientWarning } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { HttpClientTransport } from '../../src/transports/http/client/index.js';
import { LISTENING } from './servers/content.js';
import { stopChild } from '../e2e/serve-harness.js';

export { stopChild };

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const MODERN = '2026-07-28';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true once `pid` is gone, false if it still runs after `withinMs`. */
export async function waitGone(pid: number, withinMs = 3000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: string[];
}

/**
 * Runs `node <args>` and resolves with the URL of its first stdout line matching
 * "listening http://127.0.0.1:<port>/mcp" (other output is kept in `output`).
 */
export async function spawnListening(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<SpawnedServer> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "listening" line; output: ${output.join('')}`)),
      15_000,
    );
    const done = (): void => clearTimeout(timer);
    child.once('error', (error) => (done(), reject(error)));
    child.once('exit', (code, signal) => {
      done();
      reject(new Error(`server exited early (${code ?? signal}); output: ${output.join('')}`));
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = LISTENING.exec(line);
      if (match?.[1]) {
        done();
        resolveUrl(match[1]);
      } else output.push(`${line}\n`);
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return { child, url, output };
}

export type ClientEra = 'auto' | 'legacy';

/** One McpClient as every interop test makes it; `warnings` collects what it warned about. */
export function newClient(
  transport: StdioClientTransport | HttpClientTransport,
  era: ClientEra,
  warnings: ClientWarning[],
  notifications: string[] = [],
): McpClient {
  return new McpClient({
    transport,
    era,
    clientInfo: { name: 'mcpkit-client-interop', version: '0.0.1' },
    onWarning: (warning) => warnings.push(warning),
    onNotification: (note) => notifications.push(note.method),
    requestTimeoutMs: 15_000,
  });
}

export function stdioTransport(args: readonly string[]): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args, cwd: ROOT });
}

export function httpTransport(url: string): HttpClientTransport {
  return new HttpClientTransport({ url });
}

export function base64Bytes(blob: unknown): Uint8Array {
  if (typeof blob !== 'string') throw new TypeError(`blob is ${typeof blob}, not base64 text`);
  return new Uint8Array(Buffer.from(blob, 'base64'));
}

/** A content block of a tool result or a read, loosely typed for checks. */
export interface Block {
  type?: string;
  uri?: string;
  name?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export function blocksOf(result: { content?: unknown } | { contents?: unknown }): Block[] {
  const list = 'content' in result ? result.content : (result as { contents?: unknown }).contents;
  if (!Array.isArray(list)) throw new TypeError('result has no content array');
  return list as Block[];
}

/** Everything a `for await` over one of the client's list iterators yields. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
