/**
 * Harness of test/e2e/redis-*.test.ts: a real redis-server per test file (or per test), on a
 * free 127.0.0.1 port, without persistence, stopped afterwards. Where redis-server is missing,
 * the suites skip with a printed reason, except in CI (`CI=true`), where they fail: CI installs
 * it (.ci/run), so a missing one there is a broken CI, not a reason to pass.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';
import { onFreePort } from './free-port.js';

export const IN_CI = /^(1|true)$/i.test(process.env['CI'] ?? '');

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  return dirs
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(isExecutable);
}

const chosen = process.env['REDIS_SERVER'];
/** The redis-server binary (the REDIS_SERVER variable overrides the PATH lookup), or undefined. */
export const REDIS_SERVER = chosen
  ? isExecutable(chosen)
    ? chosen
    : undefined
  : findExecutable('redis-server');
export const OPENSSL = findExecutable('openssl');

/**
 * `describe` for suites that need redis-server: runs them when it is installed, fails in CI when
 * it is not, skips (saying why) elsewhere. `needs` names other binaries the suite needs.
 */
export function describeRedis(
  name: string,
  body: () => void,
  needs: { openssl?: boolean } = {},
): void {
  const missing = !REDIS_SERVER ? 'redis-server' : needs.openssl && !OPENSSL ? 'openssl' : '';
  if (!missing) {
    describe(name, body);
    return;
  }
  const reason =
    missing === 'redis-server' && chosen
      ? `REDIS_SERVER=${chosen} is not an executable`
      : `${missing} was not found on PATH (install it: apt-get install -y redis-server openssl)`;
  if (IN_CI) {
    describe(name, () => {
      it(`needs ${missing} (CI=true: a missing ${missing} fails)`, () => {
        throw new Error(`${name}: ${reason}`);
      });
    });
    return;
  }
  console.warn(`skipping "${name}": ${reason}`);
  describe.skip(name, body);
}

/** Polls `check` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 5000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const running = new Set<ChildProcess>();
// Last resort for a test that crashed before its afterAll: no redis-server outlives the run.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface RedisProcessOptions {
  /** requirepass: clients must give this password. */
  password?: string;
  /** TLS only (no plain port), with a fresh CA and a certificate for 127.0.0.1 (needs openssl). */
  tls?: boolean;
}

/** Certificates for a TLS redis-server: a throwaway CA and a server certificate for 127.0.0.1. */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const run = (...args: string[]): void => {
    execFileSync(OPENSSL as string, args, { cwd: dir, stdio: 'pipe' });
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  run(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-subj',
    '/CN=mcpkit test CA',
    '-days',
    '2',
  );
  run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  );
  return { ca: join(dir, 'ca.crt'), cert: join(dir, 'server.crt'), key: join(dir, 'server.key') };
}

/** One redis-server process; `restart()` brings it back on the same port (an outage). */
export class RedisProcess {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'mcpkit-redis-'));
  private readonly certs: { ca: string; cert: string; key: string } | undefined;

  private constructor(
    readonly port: number,
    private readonly options: RedisProcessOptions,
  ) {
    this.certs = options.tls ? makeCertificates(this.dir) : undefined;
  }

  static start(options: RedisProcessOptions = {}): Promise<RedisProcess> {
    // redis-server has no port 0 that it reports. A failed start may be the port taken between
    // freePort and the bind: any failure tries another port.
    return onFreePort(
      async (port) => {
        const redis = new RedisProcess(port, options);
        try {
          await redis.spawn();
          return redis;
        } catch (error) {
          redis.cleanUp();
          throw error;
        }
      },
      () => true,
    );
  }

  /** `redis://127.0.0.1:<port>` (or `rediss://`), with the password when there is one. */
  get url(): string {
    const auth = this.options.password ? `:${encodeURIComponent(this.options.password)}@` : '';
    return `${this.options.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${this.port}`;
  }

  /** The CA certificate (PEM) of a TLS server. */
  get ca(): string {
    if (!this.certs) throw new Error('not a TLS redis-server');
    return readFileSync(this.certs.ca, 'utf8');
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private args(): string[] {
    const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir];
    args.push('--daemonize', 'no', '--loglevel', 'notice', '--logfile', '');
    if (this.options.password) args.push('--requirepass', this.options.password);
    if (!this.certs) return ['--port', String(this.port), ...args];
    const { ca, cert, key } = this.certs;
    return [
      ...['--port', '0', '--tls-port', String(this.port), '--tls-cert-file', cert],
      ...['--tls-key-file', key, '--tls-ca-cert-file', ca, '--tls-auth-clients', 'no'],
      ...args,
    ];
  }

  private async spawn(): Promise<void> {
    const child = spawn(REDIS_SERVER as string, this.args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    this.child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) resolve();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code, signal) => {
        running.delete(child);
        reject(
          new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${output}`),
        );
      });
      child.once('error', reject);
      setTimeout(
        () => reject(new Error(`redis-server not ready in 10 s:\n${output}`)),
        10_000,
      ).unref();
    }).catch(async (error: unknown) => {
      await this.kill();
      throw error;
    });
    // Keep reading so that a chatty server never blocks on a full pipe.
    child.stdout?.resume();
    child.stderr?.resume();
  }

  /** SIGSTOP: the server keeps its sockets open and answers nothing (a stalled Redis). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  private async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      if (child) running.delete(child);
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
    running.delete(child);
  }

  /** Stops the server (an outage: clients see their connections drop); `restart()` undoes it. */
  async stop(): Promise<void> {
    await this.kill();
  }

  /** Starts it again on the same port, empty (no persistence). */
  async restart(): Promise<void> {
    await this.kill();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.spawn();
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Stops the server and removes its folder. */
  async close(): Promise<void> {
    await this.kill();
    this.cleanUp();
  }

  private cleanUp(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
