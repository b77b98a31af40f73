import { spawn, type ChildProcess } from 'node:child_process';
import { McpKitError } from '../../../errors/index.js';
import { escapeForMessage } from './client-stderr.js';
import { integerOption } from '../../integer-option.js';

/**
 * The variables a spawned server inherits from our environment unless `env` says otherwise
 * (the official SDK's choice, plus locale and temp folder): enough to find and run programs,
 * never API keys or tokens the host holds for itself.
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = (
  process.platform === 'win32'
    ? 'APPDATA COMSPEC HOMEDRIVE HOMEPATH LOCALAPPDATA PATH PATHEXT PROCESSOR_ARCHITECTURE ' +
      'PROGRAMFILES SYSTEMDRIVE SYSTEMROOT TEMP TMP USERNAME USERPROFILE'
    : 'HOME LANG LC_ALL LC_CTYPE LOGNAME PATH SHELL TERM TMPDIR TZ USER'
).split(' ');

/**
 * The child's environment: {@link DEFAULT_INHERITED_ENV_VARS} from ours, then `env` over them
 * (`undefined` removes a variable). Pass `{ ...process.env, ... }` to hand over everything.
 */
export function childEnv(env: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = process.env[name];
    // Values starting with '()' are exported shell functions: a known injection route.
    if (value !== undefined && !value.startsWith('()')) out[name] = value;
  }
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

export interface SpawnSpec {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string | undefined;
  stderr: 'inherit' | 'ignore' | 'pipe';
}

/** Starts the child; rejects with SPAWN_FAILED naming the command when it cannot run. */
export function spawnChild(spec: SpawnSpec): Promise<ChildProcess> {
  const label = escapeForMessage(spec.command);
  const failed = (error: unknown): McpKitError => {
    const code = (error as { code?: unknown }).code;
    const hint =
      code === 'ENOENT'
        ? spec.cwd === undefined
          ? ': command not found (check the command and PATH)'
          : `: command or cwd ${escapeForMessage(spec.cwd)} not found (check the command, PATH and cwd)`
        : code === 'EACCES'
          ? ': permission denied (is it executable?)'
          : `: ${(error as Error).message}`;
    return new McpKitError('SPAWN_FAILED', `could not start server ${label}${hint}`, {
      cause: error,
    });
  };
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(spec.command, [...spec.args], {
        cwd: spec.cwd,
        env: spec.env,
        stdio: ['pipe', 'pipe', spec.stderr],
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      reject(failed(error));
      return;
    }
    const onError = (error: Error): void => {
      child.off('spawn', onSpawn);
      reject(failed(error));
    };
    const onSpawn = (): void => {
      child.off('error', onError);
      // Later errors (a kill that failed) must not crash us: exit reports what matters.
      child.on('error', () => undefined);
      track(child);
      resolve(child);
    };
    child.once('error', onError);
    child.once('spawn', onSpawn);
  });
}

/** How a child ended, for SERVER_EXITED messages. */
export function exitDescription(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal !== null) return `was killed by ${signal}`;
  return `exited with code ${code === null ? 'unknown' : String(code)}`;
}

/**
 * The shutdown sequence: stdin closed (a well-behaved server exits at EOF), then SIGTERM after
 * `graceMs`, then SIGKILL after `graceMs` more. Resolves once `exited` has.
 */
export async function shutdownChild(
  child: ChildProcess,
  exited: Promise<void>,
  graceMs: number,
): Promise<void> {
  child.stdin?.end();
  if (await settlesWithin(exited, graceMs)) return;
  child.kill('SIGTERM');
  if (await settlesWithin(exited, graceMs)) return;
  child.kill('SIGKILL');
  await exited;
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Children still running when our process exits are killed: never left behind. The hook is
// registered once, whatever the number of transports.
const live = new Set<ChildProcess>();
let hooked = false;

function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

/** A `StdioClientTransport` option that must be a positive integer, or its default. */
export function positive(name: string, value: number | undefined, fallback: number): number {
  return integerOption('StdioClientTransport', name, value, fallback);
}
