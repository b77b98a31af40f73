/**
 * Harness of the `mcpkit audit` end-to-end tests: the built CLI as a process, the fixtures
 * (broken-server.mjs, slow-server.mjs), and HTTP servers (the broken fixture, the SDK v2
 * server, `mcpkit serve`) as processes that print their URL.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Finding, Severity } from '../../../src/cli/audit-findings.js';
import type { AuditReport } from '../../../src/cli/audit-report.js';
import { CLI, ROOT, stopChild } from '../serve-harness.js';

export const BROKEN = fileURLToPath(new URL('./broken-server.mjs', import.meta.url));
export const SLOW = fileURLToPath(new URL('./slow-server.mjs', import.meta.url));
export const SDK_SERVER = 'test/interop/servers/sdk-server.ts';
export const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function env(): Record<string, string> {
  return { ...(process.env as Record<string, string>), NODE_OPTIONS: '' };
}

/** `node dist/cli/main.js ...args`, killed after `timeoutMs`. */
export function runCli(args: readonly string[], timeoutMs = 25_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: env(), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

/** `mcpkit audit --json ...args`, parsed. */
export async function auditJson(
  args: readonly string[],
): Promise<{ run: CliRun; report: AuditReport }> {
  const run = await runCli(['audit', '--json', ...args]);
  let report: AuditReport;
  try {
    report = JSON.parse(run.stdout) as AuditReport;
  } catch {
    throw new Error(`audit printed no JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
  return { run, report };
}

/** `code severity` of every finding, sorted and without repeats: what a table test compares. */
export function codesOf(findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((f) => `${f.code} ${f.severity}`))].sort();
}

export function only(findings: readonly Finding[], code: string, severity?: Severity): Finding[] {
  return findings.filter(
    (f) => f.code === code && (severity === undefined || f.severity === severity),
  );
}

/** A server process that prints `listening <url>` (or, for `mcpkit serve`, the URL) first. */
export class ListeningServer {
  stderr = '';

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly url: string,
  ) {}

  static async start(args: readonly string[]): Promise<ListeningServer> {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: env(), stdio: 'pipe' });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no URL in 15 s: ${stderr}`)), 15_000);
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited early (${code}): ${stderr}`)));
    });
    const server = new ListeningServer(child, url);
    server.stderr = stderr;
    child.stderr.on('data', (d: string) => (server.stderr += d));
    return server;
  }

  async stop(): Promise<void> {
    await stopChild(this.child);
  }
}
