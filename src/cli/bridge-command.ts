/**
 * `mcpkit bridge`: an MCP server that fronts one upstream server (stdio command or URL), for a
 * host, over stdio (default) or `--http`. The work is the library's (`src/bridge`).
 */
import { createWriteStream, statSync, type WriteStream } from 'node:fs';
import { createBridge } from '../bridge/index.js';
import {
  DEFAULT_PDF_MAX_MEMORY_BYTES,
  PDFJS_INSTALL,
  pdfLibraryUrl,
} from '../bridge/pdf/pdf-text.js';
import { PdfLane } from '../bridge/pdf/pdf-lane.js';
import { builtinProfileNames, explainProfile, loadProfile } from '../bridge/profiles/index.js';
import type { ClientTransport } from '../client/index.js';
import { McpKitError } from '../errors/index.js';
import { HttpClientTransport } from '../transports/http/client/index.js';
import { hostsAllowedFor } from '../transports/http/server/origin-guard.js';
import { serveHttp } from '../transports/node.js';
import { StdioClientTransport } from '../transports/stdio/client/index.js';
import { serveStdio } from '../transports/stdio/server/index.js';
import type { BridgeArgs } from './bridge-args.js';
import { bridgeArgv, bridgeCommand, CONFIG_FILES, entryName, hostConfig } from './bridge-config.js';
import type { HostArgs } from './host-args.js';
import { targetAuth } from './host-auth.js';
import { describeTarget } from './host-connect.js';
import { packageVersion } from './package-version.js';
import { rateLimitedLines, rejectionReporter } from './auth-rejections.js';
import { resourceServerOf } from './serve-auth.js';
import { UsageError } from './usage-error.js';

/** Upstream messages over this are not buffered whole (the request fails, the bridge stays up). */
const UPSTREAM_MAX_LINE_BYTES = 16 * 1024 * 1024;
/** At most one line a second about the upstream's warnings (a stream of bad lines is counted). */
const UPSTREAM_WARNING_INTERVAL_MS = 1000;

/** `--explain-profile NAME`: the profile as JSON that `--profile FILE` accepts back. */
export async function explainCommand(name: string): Promise<number> {
  process.stdout.write(explainProfile(await loadProfile(name)));
  return 0;
}

/** The hosts `--print-config` knows: the built-in profiles (the generic ones print the common shape). */
export function configHosts(): string[] {
  return [...new Set([...builtinProfileNames(), ...Object.keys(CONFIG_FILES)])];
}

/** `--print-config HOST`: the snippet on stdout, where it goes on stderr. */
export function printConfig(args: BridgeArgs): number {
  const host = args.printConfig as string;
  const hosts = configHosts();
  if (!hosts.includes(host))
    throw new UsageError(`--print-config: unknown host "${host}"; known: ${hosts.join(', ')}`);
  const { command, entry } = bridgeCommand();
  const isFile = (p: string): boolean => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const argv = bridgeArgv(args, entry, process.cwd(), isFile);
  const snippet = hostConfig(host, entryName(args), command, argv);
  process.stdout.write(`${JSON.stringify(snippet, null, 2)}\n`);
  const where = CONFIG_FILES[host];
  if (where) process.stderr.write(`mcpkit: add this to ${where}\n`);
  return 0;
}

/**
 * The upstream's transport, and for an HTTP upstream a way to open more sessions with the same
 * sign-in (the input lanes of 2026-07-28 hosts in front of a 2025-11-25 upstream).
 */
async function upstreamTransport(
  args: BridgeArgs,
): Promise<{ transport: ClientTransport; more?: () => ClientTransport }> {
  const target = args.target;
  if (target.kind === 'stdio') {
    const transport = new StdioClientTransport({
      command: target.command,
      args: target.args,
      env: { ...process.env },
      stderr: 'inherit',
      maxLineBytes: UPSTREAM_MAX_LINE_BYTES,
    });
    return { transport };
  }
  const signIn = await targetAuth(
    { ...args.upstream, target } as unknown as HostArgs,
    target.url,
    (line) => void process.stderr.write(`${line}\n`),
  );
  const more = (): ClientTransport =>
    new HttpClientTransport({
      url: target.url,
      auth: signIn.auth,
      maxResponseBytes: UPSTREAM_MAX_LINE_BYTES,
    });
  return { transport: more(), more };
}

/**
 * Runs the bridge until the host goes away (stdio: its stdin ends) or `stop()` (SIGINT/SIGTERM).
 * Log lines go to stderr; stdout is the host's channel over stdio.
 */
export async function runBridge(
  args: BridgeArgs,
): Promise<{ done: Promise<number>; stop: () => Promise<void> }> {
  const profile = await loadProfile(args.profile ?? 'passthrough');
  if (args.extractPdf && pdfLibraryUrl() === undefined)
    throw new UsageError(`--extract-pdf needs pdf.js, which is not installed: ${PDFJS_INSTALL}`);
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  let decisions: WriteStream | undefined;
  if (args.log !== undefined) {
    decisions = createWriteStream(args.log, { flags: 'a', mode: 0o600 });
    decisions.on('error', (error) => log(`mcpkit bridge: --log ${args.log}: ${error.message}`));
  }
  const era = { auto: 'auto', '2026-07-28': 'modern', '2025-11-25': 'legacy' } as const;
  // Downstream HTTP authorization is checked before the upstream starts (a refusal exits 2).
  let boundUrl = '';
  const auth =
    args.downstream.kind === 'http'
      ? resourceServerOf(
          args.serveAuth,
          args.insecureNoAuth,
          args.downstream.host,
          () => boundUrl,
          process.env,
          rejectionReporter(log),
        )
      : undefined;
  let bridge;
  try {
    const upstreamWarning = (() => {
      const line = rateLimitedLines(
        log,
        (text, more) =>
          `mcpkit bridge: the upstream server: ${text}${more > 0 ? ` (${more} more warnings since the last line)` : ''}`,
        UPSTREAM_WARNING_INTERVAL_MS,
      );
      return (warning: { message: string }) => line(warning.message);
    })();
    const { transport, more } = await upstreamTransport(args);
    bridge = await createBridge({
      transport,
      ...(more ? { moreTransport: more } : {}),
      client: {
        clientInfo: { name: 'mcpkit-bridge', version: packageVersion() },
        era: era[args.upstream.era],
        requestTimeoutMs: args.upstream.timeoutMs,
        cache: false,
        maxListItems: args.upstream.maxListItems,
        maxListBytes: args.upstream.maxListBytes,
        maxCursorBytes: args.upstream.maxCursorBytes,
        // An upstream that breaks its framing is named on stderr, not silent until the timeout.
        onWarning: upstreamWarning,
      },
      profile,
      forwardInput: args.forwardInput,
      maxLinkBytes: args.maxLinkBytes,
      requestTimeoutMs: args.upstream.timeoutMs,
      ...(args.maxResultChars !== undefined ? { maxResultChars: args.maxResultChars } : {}),
      ...(args.maxReadBytes !== undefined ? { maxReadBytes: args.maxReadBytes } : {}),
      ...(args.extractPdf
        ? {
            pdf: {
              maxPages: args.pdfMaxPages,
              maxBytes: args.pdfMaxBytes,
              maxTextBytes: args.maxLinkBytes,
              timeoutMs: args.pdfTimeoutMs,
              maxMemoryBytes: DEFAULT_PDF_MAX_MEMORY_BYTES,
              lane: new PdfLane(),
              readUnsizedLinks: args.target.kind === 'http',
            },
          }
        : {}),
      ...(args.inputTtlMs !== undefined ? { inputTtlMs: args.inputTtlMs } : {}),
      ...(args.maxParkedInputs !== undefined ? { maxParkedInputs: args.maxParkedInputs } : {}),
      ...(decisions
        ? { onDecision: (entry) => void decisions?.write(`${JSON.stringify(entry)}\n`) }
        : {}),
      onWarning: log,
      onLog: log,
    });
  } catch (error) {
    decisions?.end();
    const why = error instanceof Error ? error.message : String(error);
    throw new McpKitError(
      error instanceof McpKitError ? error.code : 'PEER_CLOSED',
      `cannot start the upstream ${describeTarget(args.target)}: ${why}`,
      { cause: error },
    );
  }
  const built = bridge;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await built.close().catch(() => undefined);
      decisions?.end();
    })());
  if (args.downstream.kind === 'stdio') {
    const connection = serveStdio(built.server);
    return {
      done: connection.closed.then(async () => {
        await close();
        return 0;
      }),
      stop: async () => {
        connection.close();
        await close();
      },
    };
  }
  const { host, port } = args.downstream;
  const allowedHosts = hostsAllowedFor(host, args.allowHosts);
  let running;
  try {
    running = await serveHttp(built.server, {
      host,
      port,
      legacy: true,
      ...(auth ? { auth } : {}),
      allowedHosts,
    });
  } catch (error) {
    await close();
    const code = (error as { code?: string }).code;
    const why = code === 'EADDRINUSE' ? 'the address is in use' : (error as Error).message;
    throw new McpKitError('LISTEN_FAILED', `cannot listen on ${host}:${port}: ${why}`);
  }
  boundUrl = running.url;
  process.stdout.write(`${running.url}\n`);
  log(`mcpkit bridge: ${describeTarget(args.target)} (profile ${profile.name}) at ${running.url}`);
  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));
  const http = running;
  return {
    done,
    stop: async () => {
      await http.close();
      await close();
      resolveDone(0);
    },
  };
}
