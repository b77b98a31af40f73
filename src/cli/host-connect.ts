/**
 * The client of `mcpkit inspect` and `mcpkit audit`: the target of the command line, connected.
 * Over HTTP the target URL is the user's own choice and is never subject to the SSRF guard.
 */
import { McpClient } from '../client/index.js';
import type { ClientWarning, McpClientOptions } from '../client/index.js';
import { McpKitError, ProtocolError } from '../errors/index.js';
import { HttpClientTransport } from '../transports/http/client/index.js';
import { StdioClientTransport } from '../transports/stdio/client/index.js';
import type { HostArgs, HostTarget } from './host-args.js';
import { targetAuth } from './host-auth.js';
import { packageVersion } from './serve-command.js';
import { shownText } from './terminal-text.js';

export interface ConnectHooks {
  onWarning?(warning: ClientWarning): void;
  /** Notifications no request claimed (logs, list changes). */
  onNotification?(notification: { method: string; params?: Record<string, unknown> }): void;
  /** `clientInfo.name` (default `mcpkit`). */
  clientName?: string;
  /** Given, for a stdio target, what the server's captured stderr holds (read it after close). */
  onStderr?(read: () => string): void;
}

/**
 * A target that could not be connected to; `quotesStderr` says its message already quotes the
 * server's stderr (so the caller does not print it twice).
 */
export class TargetUnreachable extends McpKitError {
  constructor(
    code: McpKitError['code'],
    message: string,
    readonly quotesStderr: boolean,
    options: { cause: unknown },
  ) {
    super(code, message, options);
  }
}

/** Whether `error`'s message quotes the server's stderr: a failed connection, or an exit. */
export function quotesStderr(error: unknown): boolean {
  if (error instanceof TargetUnreachable) return error.quotesStderr;
  return error instanceof McpKitError && error.code === 'SERVER_EXITED';
}

const ERA_PIN: Record<HostArgs['era'], NonNullable<McpClientOptions['era']>> = {
  auto: 'auto',
  '2026-07-28': 'modern',
  '2025-11-25': 'legacy',
};

/** The target as a person would type it: the URL, or the command line (escaped for a terminal). */
export function describeTarget(target: HostTarget): string {
  if (target.kind === 'http') return shownText(target.url);
  const words = [target.command, ...target.args].map((w) =>
    /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`,
  );
  return shownText(words.join(' '));
}

/**
 * Connects to the command line's target: HTTP through `HttpClientTransport`, stdio by spawning
 * the command (with our environment: the user named the server, as with any command they run),
 * its stderr captured for error messages. The era is pinned by `--era`; each request waits
 * `--timeout`; the cache is off (every answer is what the server sent now).
 *
 * @throws McpKitError when the server cannot be reached, started or initialized (the caller
 *   exits 1); a JSON-RPC error answered to the handshake comes as that McpKitError's cause.
 */
export async function connectTarget(args: HostArgs, hooks: ConnectHooks = {}): Promise<McpClient> {
  const { target } = args;
  const signIn =
    target.kind === 'http'
      ? await targetAuth(args, target.url, (line) => void process.stderr.write(`${line}\n`))
      : undefined;
  const transport =
    target.kind === 'http'
      ? new HttpClientTransport({ url: target.url, ...(signIn ? { auth: signIn.auth } : {}) })
      : new StdioClientTransport({
          command: target.command,
          args: target.args,
          env: { ...process.env },
          stderr: 'capture',
        });
  const options: McpClientOptions = {
    transport,
    clientInfo: { name: hooks.clientName ?? 'mcpkit', version: packageVersion() },
    era: ERA_PIN[args.era],
    requestTimeoutMs: args.timeoutMs,
    cache: false,
    maxListItems: args.maxListItems,
    maxListBytes: args.maxListBytes,
    maxCursorBytes: args.maxCursorBytes,
  };
  if (transport instanceof StdioClientTransport) {
    const stdio = transport;
    hooks.onStderr?.(() => stdio.stderrText());
  }
  if (hooks.onWarning) options.onWarning = (w) => hooks.onWarning?.(w);
  if (hooks.onNotification) options.onNotification = (n) => hooks.onNotification?.(n);
  const client = new McpClient(options);
  // With --auth the redirect listener stays up (unref'd) for a sign-in later in the run.
  try {
    return await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw unreachable(target, error, transport);
  }
}

function unreachable(
  target: HostTarget,
  error: unknown,
  transport: HttpClientTransport | StdioClientTransport,
): McpKitError {
  const where = describeTarget(target);
  if (error instanceof McpKitError) {
    const stderr = transport instanceof StdioClientTransport ? transport.stderrText() : '';
    // The exit error already quotes stderr; others (a timeout) do not. Known by the error's code,
    // not by its text: a server's own message may say "stderr".
    const tail = stderr && !quotesStderr(error) ? `; its stderr: ${lastLines(stderr)}` : '';
    return new TargetUnreachable(
      error.code,
      `cannot connect to ${where}: ${error.message}${tail}`,
      stderr !== '',
      { cause: error },
    );
  }
  const what =
    error instanceof ProtocolError
      ? `the handshake was answered with error ${error.code}: ${shownText(error.message)}`
      : error instanceof Error
        ? error.message
        : String(error);
  return new TargetUnreachable(
    error instanceof ProtocolError ? 'INVALID_RESPONSE' : 'PEER_CLOSED',
    `cannot connect to ${where}: ${what}`,
    false,
    { cause: error },
  );
}

function lastLines(text: string): string {
  const lines = text.trimEnd().split('\n').slice(-5).join('\n');
  return shownText(lines.length > 1000 ? `…${lines.slice(-1000)}` : lines);
}
