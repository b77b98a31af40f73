/** `mcpkit serve`: a folder as an MCP server over stdio or Streamable HTTP. */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpKitError } from '../errors/index.js';
import { DEFAULT_BLOCK_BUDGET_BYTES, DEFAULT_RESULT_BUDGET_BYTES } from '../content/index.js';
import { serveFolder, type FilesystemProvider } from '../providers/filesystem/index.js';
import {
  createServer,
  ENVELOPE_RESERVE_BYTES,
  type McpServer,
  type ServerOptions,
} from '../server/index.js';
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STDIO_MAX_RESPONSE_BYTES,
  serveStdio,
} from '../transports/stdio/server/index.js';
import {
  DEFAULT_HTTP_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_BODY_BYTES,
  LOOPBACK_HOSTS,
} from '../transports/http/server/index.js';
import { serveHttp } from '../transports/node.js';
import { assemblyCapBytes } from '../transports/stdio/server/serve-stdio.js';
import type { ServeArgs } from './args.js';
import { banner, type BannerInput } from './banner.js';
import { within } from './bounded-wait.js';
import { startIdleCompaction } from './idle-compaction.js';
import { createProgressReporter } from './progress.js';
import { indexProgress, walkProgress } from './serve-progress.js';
import { openShared, redisStdioArgs } from './serve-redis.js';
import { UsageError } from './usage-error.js';
import { authBannerLine, resourceServerOf } from './serve-auth.js';
import { rejectionReporter } from './auth-rejections.js';

/** What the command writes to, and how this process was started (for the printed configuration). */
export interface ServeIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  /** The program and its leading arguments that run the CLI, e.g. node and dist/cli/main.js. */
  self?: { command: string; args: string[] };
}

function selfCommand(io: ServeIo): { command: string; args: string[] } {
  if (io.self) return io.self;
  const script = process.argv[1] ?? fileURLToPath(new URL('./main.js', import.meta.url));
  return { command: process.execPath, args: [...process.execArgv, path.resolve(script)] };
}

export { UsageError };

/** The example folder shipped with the package (examples/docs next to dist/ or src/). */
export function bundledExampleDir(): string {
  return fileURLToPath(new URL('../../examples/docs', import.meta.url));
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
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

/** The arguments that start the same server over stdio, for the pasted configuration. */
function stdioArgs(args: ServeArgs, dir: string): string[] {
  // -q: a host launches it again and again; its log should not fill with the banner.
  const out = ['serve', dir, '--stdio', '-q'];
  if (args.blockBudgetBytes !== undefined)
    out.push('--block-budget', String(args.blockBudgetBytes));
  if (args.resultBudgetBytes !== undefined)
    out.push('--result-budget', String(args.resultBudgetBytes));
  if (args.pageSize !== undefined) out.push('--page-size', String(args.pageSize));
  if (args.cacheBytes !== undefined) out.push('--cache-bytes', String(args.cacheBytes));
  if (args.partBytes !== undefined) out.push('--part-bytes', String(args.partBytes));
  if (args.maxLineBytes !== undefined) out.push('--max-line-bytes', String(args.maxLineBytes));
  // Outbound defaults differ per transport: only a cap chosen for stdio carries over.
  if (args.maxResponseBytes !== undefined && args.transport.kind === 'stdio')
    out.push('--max-response-bytes', String(args.maxResponseBytes));
  // The limits that mean the same on stdio: the pasted configuration keeps them.
  for (const [flag, value] of [
    ['--max-depth', args.maxDepth],
    ['--max-listen-queue-bytes', args.maxListenQueueBytes],
    ['--max-listen-queue-total-bytes', args.maxListenQueueTotalBytes],
    ['--max-listens', args.maxListens],
    ['--max-listen-uris', args.maxListenUris],
    ['--max-listen-pending-uris', args.maxListenPendingUris],
    ['--max-encoded-read-bytes', args.maxEncodedReadBytes],
    ['--max-response-total-bytes', args.maxResponseTotalBytes],
    ['--max-files', args.maxFiles],
    ['--index-dir', args.indexDir],
    ['--search-max-file-bytes', args.searchMaxFileBytes],
    [
      '--search-timeout',
      args.searchTimeoutMs === undefined ? undefined : `${args.searchTimeoutMs}ms`,
    ],
    ['--read-timeout', args.readTimeoutMs === undefined ? undefined : `${args.readTimeoutMs}ms`],
    ['--max-stalled-reads', args.maxStalledReads],
    ['--read-workers', args.readWorkers],
    [
      '--watch-debounce',
      args.watchDebounceMs === undefined ? undefined : `${args.watchDebounceMs}ms`,
    ],
  ] as const) {
    if (value !== undefined) out.push(flag, String(value));
  }
  if (!args.watch) out.push('--no-watch');
  if (args.refuseHardLinks) out.push('--no-hard-links');
  if (!args.idleGc) out.push('--no-idle-gc');
  out.push(...redisStdioArgs(args));
  return out;
}

/** The entries whose value is given (options are exact: an absent one keeps its default). */
function defined<T extends Record<string, number | undefined>>(
  values: T,
): { [K in keyof T]?: number } {
  const out: { [K in keyof T]?: number } = {};
  for (const key of Object.keys(values) as Array<keyof T>) {
    const value = values[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function serverNameOf(dir: string): string {
  return (
    path
      .basename(dir)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'files'
  );
}

function createFolderServer(
  args: ServeArgs,
  dir: string,
  shared: Partial<ServerOptions> = {},
): McpServer {
  const name = path.basename(dir) || dir;
  return createServer({
    name: 'mcpkit-serve',
    version: packageVersion(),
    title: `mcpkit serve: ${name}`,
    instructions:
      `The files of the folder "${name}", as resources file:///{+path} (paths relative to the folder). ` +
      'Call "search" to find files by name or text, and "read" to get one: small files come embedded, large ones as links ' +
      'to read with resources/read. The prompt "survey" gives an overview of a topic; "review-file" reviews one file.',
    ...(args.pageSize !== undefined ? { pageSize: args.pageSize } : {}),
    ...defined({
      maxDepth: args.maxDepth,
      maxListenQueueBytes: args.maxListenQueueBytes,
      maxListenQueueTotalBytes: args.maxListenQueueTotalBytes,
      maxListens: args.maxListens,
      maxListenUris: args.maxListenUris,
      maxListenPendingUris: args.maxListenPendingUris,
      maxEncodedReadBytes: args.maxEncodedReadBytes,
      maxResponseTotalBytes: args.maxResponseTotalBytes,
    }),
    ...shared,
    content: {
      ...(args.blockBudgetBytes !== undefined ? { blockBudgetBytes: args.blockBudgetBytes } : {}),
      ...(args.resultBudgetBytes !== undefined
        ? { resultBudgetBytes: args.resultBudgetBytes }
        : {}),
    },
  });
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
      return within(CLOSE_WAIT_MS, provider.close());
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
    if (!args.quiet) {
      const transport = {
        kind: 'stdio' as const,
        inboundBytes: maxLineBytes,
        outboundBytes: maxResponseBytes,
        capBytes: assemblyCapBytes(maxResponseBytes) - ENVELOPE_RESERVE_BYTES,
      };
      void withListing(provider, info).then((ready) =>
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
  const allowedHosts =
    args.allowHosts.length === 0
      ? undefined
      : [
          ...new Set([
            ...LOOPBACK_HOSTS,
            ...(LOOPBACK_HOSTS.includes(host) ? [] : [host]),
            ...args.allowHosts,
          ]),
        ];
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
    closeFolder();
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
      ...(allowedHosts ? { allowedHosts } : {}),
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
