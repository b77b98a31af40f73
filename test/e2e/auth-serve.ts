/**
 * `mcpkit serve examples/docs --http 127.0.0.1:PORT --auth-issuer … --auth-audience …` as a real
 * process (the built CLI): the port is chosen first so that the audience can be said, as an
 * operator would say the public URL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { onFreePort } from './free-port.js';
import { CLI, EXAMPLE_DIR, ROOT, stopChild } from './serve-harness.js';

export interface ProtectedServe {
  /** The endpoint URL, also the audience and the PRM `resource`. */
  url: string;
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  stop(): Promise<unknown>;
}

/**
 * The audience names the URL, so the port is chosen before serve listens: when another process
 * took it meanwhile (serve says "the address is in use"), again on another.
 */
export function serveProtected(issuer: string, ...more: string[]): Promise<ProtectedServe> {
  return onFreePort(
    (port) => serveOn(port, issuer, more),
    (error) => /address is in use/.test(String(error)),
  );
}

async function serveOn(port: number, issuer: string, more: string[]): Promise<ProtectedServe> {
  const url = `http://127.0.0.1:${port}/mcp`;
  const args = [CLI, 'serve', EXAMPLE_DIR, '-q', '--auth-issuer', issuer, '--auth-audience', url];
  const child = spawn(process.execPath, [...args, ...more, '--http', `127.0.0.1:${port}`], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL; ${stderr}`)), 15_000);
    // 'close', not 'exit': its stderr (which says why) is read whole by then.
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}): ${stderr}`));
    });
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      if (line === url) resolve();
      else reject(new Error(`unexpected first stdout line ${JSON.stringify(line)}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return { url, child, stderr: () => stderr, stop: () => stopChild(child) };
}
