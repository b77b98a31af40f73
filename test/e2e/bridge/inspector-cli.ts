/**
 * The MCP Inspector CLI as a host, for the bridge's tests. The current Inspector needs
 * Node >= 22.19 and this project runs on Node 20, so both come from the npm registry (`node` as
 * a package, and `@modelcontextprotocol/inspector`, pinned) into a prefix under the system's
 * temporary directory keyed by their versions, installed once and reused by later runs.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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

const PREFIX = join(tmpdir(), `mcpkit-inspector-${INSPECTOR_VERSION}-node-${NODE22_VERSION}`);
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

const complete = (prefix: string): boolean => {
  const p = paths(prefix);
  return existsSync(join(prefix, MARK)) && existsSync(p.node) && existsSync(p.launcher);
};

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
    await run(
      'npm',
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
      { timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const { stdout } = await run(paths(staging).node, ['--version']);
    if (!stdout.startsWith(`v${NODE22_VERSION}`))
      throw new Error(`node@${NODE22_VERSION} installed, but it says ${stdout.trim()}`);
    await writeFile(join(staging, MARK), `${new Date().toISOString()}\n`);
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
): Promise<InspectorRun> {
  const argv = [inspector.launcher, '--cli', '--format', 'json', ...options, '--', ...target];
  const done = await run(inspector.node, argv, {
    cwd,
    timeout: 60_000,
    maxBuffer: 32 * 1024 * 1024,
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
