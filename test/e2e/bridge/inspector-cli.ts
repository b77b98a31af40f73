/**
 * The MCP Inspector CLI as a host, for the bridge's tests. The current Inspector needs
 * Node >= 22.19 and this project runs on Node 20, so both come from the npm registry (`node` as
 * a package, and `@modelcontextprotocol/inspector`, pinned) into a prefix under the system's
 * temporary directory keyed by their versions, installed once and reused by later runs.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const INSPECTOR_VERSION = '2.12.0';
export const NODE22_VERSION = '22.23.3';
/** True under CI, where a missing Inspector is a failure, not a reason to skip. */
export const IN_CI = /^(1|true)$/i.test(process.env['CI'] ?? '');

export interface Inspector {
  /** Node 22's binary. */
  node: string;
  /** The Inspector's launcher (`mcp-inspector`); `--cli` as its first argument runs the CLI. */
  launcher: string;
  /** How long the install took (ms), 0 when it was already there. */
  installMs: number;
}

// Per user: another user's copy in a shared temporary directory is never executed.
const PREFIX = join(
  tmpdir(),
  `mcpkit-inspector-${INSPECTOR_VERSION}-node-${NODE22_VERSION}-uid-${process.getuid?.() ?? 'any'}`,
);
const MARK = '.installed';

function paths(prefix: string): Omit<Inspector, 'installMs'> {
  return {
    node: join(prefix, 'node_modules', 'node', 'bin', 'node'),
    launcher: join(
      prefix,
      'node_modules',
      '@modelcontextprotocol',
      'inspector',
      'clients',
      'launcher',
      'build',
      'index.js',
    ),
  };
}

/** True when `path` belongs to the current user (always true where there are no user ids). */
function ownedByMe(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  try {
    return statSync(path).uid === uid;
  } catch {
    return false;
  }
}

const complete = (prefix: string): boolean => {
  const p = paths(prefix);
  return (
    ownedByMe(prefix) &&
    existsSync(join(prefix, MARK)) &&
    existsSync(p.node) &&
    existsSync(p.launcher)
  );
};

/**
 * Runs npm in its own process group and ends the whole group at `timeoutMs` (npm's children,
 * node's install scripts among them, would outlive npm alone).
 */
function npmInstall(args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(killGroup, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          Object.assign(new Error(`npm ${args[0]} ended with ${signal ?? `code ${code}`}`), {
            stderr,
          }),
        );
    });
  });
}

/**
 * The Inspector, installed when it is not there yet. Resolves with why when it cannot be had
 * (no registry, npm failing); another run installing at the same time is harmless: each
 * installs into its own directory and the first to finish names it.
 */
export async function ensureInspector(): Promise<Inspector | { error: string }> {
  if (complete(PREFIX)) return { ...paths(PREFIX), installMs: 0 };
  const started = Date.now();
  const staging = `${PREFIX}.${process.pid}.${started}`;
  try {
    await mkdir(staging, { recursive: true });
    await writeFile(join(staging, 'package.json'), '{"private":true}\n');
    await npmInstall(
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--fetch-retries=1',
        '--prefix',
        staging,
        `node@${NODE22_VERSION}`,
        `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
      ],
      280_000,
    );
    const { stdout } = await run(paths(staging).node, ['--version']);
    if (!stdout.startsWith(`v${NODE22_VERSION}`))
      throw new Error(`node@${NODE22_VERSION} installed, but it says ${stdout.trim()}`);
    await writeFile(join(staging, MARK), `${new Date().toISOString()}\n`);
    // An incomplete copy (an interrupted run, or not ours) would make the rename fail every time.
    if (existsSync(PREFIX) && !complete(PREFIX)) await rm(PREFIX, { recursive: true, force: true });
    await rename(staging, PREFIX).catch(async (error: unknown) => {
      // Another run finished first: use its copy.
      if (!complete(PREFIX)) throw error;
      await rm(staging, { recursive: true, force: true });
    });
    return { ...paths(PREFIX), installMs: Date.now() - started };
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    const e = error as { message?: string; stderr?: string };
    const detail = `${e.message ?? String(error)}\n${(e.stderr ?? '').slice(-2000)}`.trim();
    return {
      error: `cannot install node@${NODE22_VERSION} and @modelcontextprotocol/inspector@${INSPECTOR_VERSION} from the npm registry into ${PREFIX}: ${detail}`,
    };
  }
}

export interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed (`--format json`: one JSON object), or undefined when it is not JSON. */
  json?: Record<string, unknown>;
}

/** Runs `inspector --cli --format json OPTIONS -- TARGET…` from `cwd`. */
export async function inspectorCli(
  inspector: Inspector,
  options: string[],
  target: string[],
  cwd: string,
  signal?: AbortSignal,
): Promise<InspectorRun> {
  const argv = [inspector.launcher, '--cli', '--format', 'json', ...options, '--', ...target];
  const done = await run(inspector.node, argv, {
    cwd,
    timeout: 100_000,
    killSignal: 'SIGKILL',
    maxBuffer: 32 * 1024 * 1024,
    ...(signal ? { signal } : {}),
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number | string; stdout?: string; stderr?: string }) => ({
      code: typeof e.code === 'number' ? e.code : null,
      stdout: e.stdout ?? '',
      stderr: `${e.stderr ?? ''}${typeof e.code === 'string' ? ` (${e.code})` : ''}`,
    }),
  );
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(done.stdout) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return json ? { ...done, json } : done;
}
