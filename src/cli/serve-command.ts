/** `mcpkit serve`: a folder as an MCP server over stdio or Streamable HTTP. */
import { existsSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpKitError } from '../errors/index.js';
import { DEFAULT_BLOCK_BUDGET_BYTES, DEFAULT_RESULT_BUDGET_BYTES } from '../content/index.js';
import { serveFolder, type FilesystemProvider } from '../providers/filesystem/index.js';
import { ENVELOPE_RESERVE_BYTES } from '../server/index.js';
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STDIO_MAX_RESPONSE_BYTES,
  serveStdio,
} from '../transports/stdio/server/index.js';
import {
  DEFAULT_HTTP_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_BODY_BYTES,
} from '../transports/http/server/index.js';
import { hostsAllowedFor } from '../transports/http/server/origin-guard.js';
import { serveHttp } from '../transports/node.js';
import { assemblyCapBytes } from '../transports/stdio/server/serve-stdio.js';
import type { ServeArgs } from './args.js';
import { banner, type BannerInput } from './banner.js';
import { waitAtMost } from '../providers/filesystem/wait-at-most.js';
import { startIdleCompaction } from './idle-compaction.js';
import { createProgressReporter } from './progress.js';
import { indexProgress, walkProgress } from './serve-progress.js';
import { openShared } from './serve-redis.js';
import { UsageError } from './usage-error.js';
import { authBannerLine, resourceServerOf } from './serve-auth.js';
import { rejectionReporter } from './auth-rejections.js';
import { defined } from './defined.js';
import { createFolderServer } from './folder-server.js';
import { stdioArgs } from './serve-stdio-args.js';

/** What the command writes to, and how this process was started (for the printed configuration). */
export interface ServeIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** The program and its leading arguments that run the CLI, e.g. node and dist/cli/main.js. */
  self?: { command: string; args: string[] };
}

function selfCommand(io: ServeIo): { command: string; args: string[] } {
  if (io.self) return io.self;
  const script = path.resolve(
    process.argv[1] ?? fileURLToPath(new URL('./main.js', import.meta.url)),
  );
  return { command: process.execPath, args: [...process.execArgv, realFile(script)] };
}

/** The file a link points to: `npx mcpkit` runs the CLI through a link in npm's cache
 * (~/.npm/_npx/…), gone at the next cache clean, and a pasted configuration must outlive it. */
function realFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

export { UsageError };
export { packageVersion } from './package-version.js';

/** The example folder shipped with the package (examples/docs next to dist/ or src/). */
export function bundledExampleDir(): string {
  return fileURLToPath(new URL('../../examples/docs', import.meta.url));
}

function checkDir(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`cannot serve ${JSON.stringify(dir)}: no such directory`);
  }
  if (!isDir) throw new UsageError(`cannot serve ${JSON.stringify(dir)}: not a directory`);
}

function serverNameOf(dir: string): string {
  return (
    path
      .basename(dir)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'files'
  );
}

/**
 * Runs `mcpkit serve`. Over stdio it resolves with 0 when stdin ends; over HTTP it resolves once
 * listening, and `stop()` (wired to SIGINT/SIGTERM by the CLI) closes it. With `--redis`, Redis is
 * reached first: unreachable, the command fails (one line, credentials masked) before indexing.
 */
export async function runServe(
  args: ServeArgs,
  io: ServeIo = process,
): Promise<{ done: Promise<number>; stop: () => Promise<void> }> {
  const dir = path.resolve(args.dir ?? bundledExampleDir());
  if (args.dirAfterHttp && !existsSync(dir))
    throw new UsageError(
      `--http expects HOST:PORT or PORT (e.g. 127.0.0.1:3333, [::1]:3333, 3333), got ${JSON.stringify(args.dir)} (and no folder of that name exists to serve)`,
    );
  checkDir(dir);
  const opened = await openShared(args, (line) => void io.stderr.write(`${line}\n`));
  let closing: Promise<void> | undefined;
  let release: () => Promise<void> = () =>
    (closing ??= opened?.shared.close() ?? Promise.resolve());
  try {
    const started = await start(args, io, dir, opened);
    release = () =>
      (closing ??= (async () => {
        await started.close();
        await opened?.shared.close();
      })());
    const done = started.done.then(async (code) => {
      await release();
      return code;
    });
    return { done, stop: () => release().then(() => started.end()) };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Longest a stop waits for the folder to close (its search index saved, --index-dir) (ms). */
const CLOSE_WAIT_MS = 6_000;

/** How long the banner waits for the folder's first walk, to give its size (ms). */
const BANNER_WAIT_MS = 250;

/** The banner's input with the folder's size, when its first walk ends soon enough. */
async function withListing(
  provider: FilesystemProvider,
  info: Omit<BannerInput, 'transport'>,
): Promise<Omit<BannerInput, 'transport'>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    provider.ready().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, BANNER_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (!provider.listingState.complete) return info;
  const files = await provider.files();
  return { ...info, files: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) };
}

/** The server and its transport; `close()` stops both, `end()` resolves `done` (HTTP). */
async function start(
  args: ServeArgs,
  io: ServeIo,
  dir: string,
  opened: Awaited<ReturnType<typeof openShared>>,
): Promise<{ done: Promise<number>; close(): Promise<void>; end(): void }> {
  const server = createFolderServer(args, dir, opened?.shared.serverOptions);
  const progress = createProgressReporter({
    write: (t) => void io.stderr.write(t),
    tty: io.stderr.isTTY === true,
    label: `mcpkit: ${dir}`,
  });
  const warn = (message: string): void => progress.log(`mcpkit: ${message}`);
  const provider = serveFolder(server, {
    root: dir,
    watch: args.watch,
    refuseHardLinks: args.refuseHardLinks,
    ...defined({
      cacheBytes: args.cacheBytes,
      readTimeoutMs: args.readTimeoutMs,
      maxStalledReads: args.maxStalledReads,
      readWorkers: args.readWorkers,
      partBytes: args.partBytes,
      watchDebounceMs: args.watchDebounceMs,
      maxFiles: args.maxFiles,
    }),
    search: {
      ...defined({ maxFileBytes: args.searchMaxFileBytes, timeoutMs: args.searchTimeoutMs }),
      ...(args.indexDir !== undefined ? { indexDir: args.indexDir } : {}),
      ...(args.quiet ? {} : { onProgress: indexProgress(progress) }),
    },
    ...(args.quiet ? {} : { onProgress: walkProgress(progress) }),
    onWarning: warn,
  });
  let stopCompaction = (): void => undefined;
  let folderClosed: Promise<void> | undefined;
  // Once: the search index saved (--index-dir) before the command ends, bounded.
  const closeFolder = (): Promise<void> =>
    (folderClosed ??= (() => {
      stopCompaction();
      return waitAtMost(CLOSE_WAIT_MS, provider.close());
    })());
  try {
    // The root only: the folder is walked in the background while the server answers.
    await provider.open();
  } catch (error) {
    await closeFolder();
    throw error;
  }
  if (args.idleGc) stopCompaction = startIdleCompaction();
  const self = selfCommand(io);
  const info: Omit<BannerInput, 'transport'> = {
    dir,
    blockBudgetBytes: args.blockBudgetBytes ?? DEFAULT_BLOCK_BUDGET_BYTES,
    resultBudgetBytes: args.resultBudgetBytes ?? DEFAULT_RESULT_BUDGET_BYTES,
    stdioCommand: { command: self.command, args: [...self.args, ...stdioArgs(args, dir)] },
    serverName: serverNameOf(dir),
    ...(opened ? { shared: opened.info } : {}),
  };
  if (args.transport.kind === 'stdio') {
    const maxLineBytes = args.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const maxResponseBytes = args.maxResponseBytes ?? DEFAULT_STDIO_MAX_RESPONSE_BYTES;
    // Written once the first walk ended or BANNER_WAIT_MS passed; a client that closes stdin
    // at once still gets it before the command exits.
    let bannerWritten: Promise<unknown> = Promise.resolve();
    if (!args.quiet) {
      const transport = {
        kind: 'stdio' as const,
        inboundBytes: maxLineBytes,
        outboundBytes: maxResponseBytes,
        capBytes: assemblyCapBytes(maxResponseBytes) - ENVELOPE_RESERVE_BYTES,
      };
      bannerWritten = withListing(provider, info).then((ready) =>
        io.stderr.write(`${banner({ ...ready, transport })}\n`),
      );
    }
    const connection = serveStdio(server, {
      maxLineBytes,
      maxResponseBytes,
      ...defined({ maxInFlight: args.maxInFlight, maxQueuedBytes: args.maxQueuedBytes }),
    });
    return {
      done: connection.closed.then(async () => {
        await bannerWritten.catch(() => undefined);
        await closeFolder();
        return 0;
      }),
      close: async () => {
        connection.close();
        await closeFolder();
      },
      end: () => undefined,
    };
  }
  const { host, port } = args.transport;
  const maxBodyBytes = args.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxResponseBytes = args.maxResponseBytes ?? DEFAULT_HTTP_MAX_RESPONSE_BYTES;
  const allowedHosts = hostsAllowedFor(host, args.allowHosts);
  // The resource's URL is the endpoint's as bound (its port known once listening).
  let boundUrl = '';
  let auth;
  try {
    // Why tokens are refused, on stderr (rate-limited, never the token); silent with -q.
    const onRejected = args.quiet ? undefined : rejectionReporter(warn);
    auth = resourceServerOf(
      args.auth,
      args.insecureNoAuth,
      host,
      () => boundUrl,
      process.env,
      onRejected,
    );
  } catch (error) {
    await closeFolder();
    throw error;
  }
  let running;
  try {
    running = await serveHttp(server, {
      ...(auth ? { auth } : {}),
      host,
      port,
      maxBodyBytes,
      maxResponseBytes,
      legacy: args.legacy,
      ...defined({
        bodyTimeoutMs: args.bodyTimeoutMs,
        headerTimeoutMs: args.headerTimeoutMs,
        maxBodyTotalBytes: args.maxBodyTotalBytes,
        writeTimeoutMs: args.writeTimeoutMs,
        maxSessions: args.maxSessions,
        sessionIdleMs: args.sessionIdleMs,
      }),
      allowedHosts,
    });
  } catch (error) {
    await closeFolder();
    const code = (error as { code?: string }).code;
    const why =
      code === 'EADDRINUSE'
        ? 'the address is in use (pick another with --http [host:]port)'
        : (error as Error).message;
    throw new McpKitError('LISTEN_FAILED', `cannot listen on ${host}:${port}: ${why}`);
  }
  boundUrl = running.url;
  // The URL comes first, alone on its line: scripts and tests read it from stdout.
  io.stdout.write(`${running.url}\n`);
  if (!args.quiet) {
    const ready = await withListing(provider, info);
    io.stdout.write(
      `${banner({
        ...ready,
        transport: {
          kind: 'http',
          url: running.url,
          inboundBytes: maxBodyBytes,
          outboundBytes: maxResponseBytes,
          capBytes: maxResponseBytes - ENVELOPE_RESERVE_BYTES,
          legacy: args.legacy,
        },
        auth: authBannerLine(args.auth, auth),
      })}\n`,
    );
  }
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));
  const http = running;
  return {
    done,
    close: async () => {
      const folder = closeFolder();
      await http.close();
      await folder;
    },
    end: () => resolveDone(0),
  };
}
