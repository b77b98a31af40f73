/** Argument parsing of `mcpkit serve`: pure, table-driven, one clear message per mistake. */

export type ServeTransport = { kind: 'stdio' } | { kind: 'http'; host: string; port: number };

export interface ServeArgs {
  /** The folder to serve; undefined: the example folder shipped with mcpkit. */
  dir?: string;
  transport: ServeTransport;
  blockBudgetBytes?: number;
  resultBudgetBytes?: number;
  pageSize?: number;
  maxLineBytes?: number;
  maxBodyBytes?: number;
  cacheBytes?: number;
  allowHosts: string[];
  legacy: boolean;
  quiet: boolean;
  watch: boolean;
  /** Refuse files with more than one hard link (`--no-hard-links`). */
  refuseHardLinks: boolean;
}

export type ParsedServeArgs =
  { kind: 'ok'; args: ServeArgs } | { kind: 'help' } | { kind: 'error'; message: string };

export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3333;

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
};

/**
 * Parses a byte size: a number with an optional unit, case-insensitive. `k`, `kib`, `m`, `mib`,
 * `g`, `gib` are powers of 1024; `kb`, `mb`, `gb` powers of 1000. Undefined when invalid.
 *
 * @example
 * parseSize('512k'); // 524288
 * parseSize('1.5m'); // 1572864
 */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = UNITS[(m[2] ?? '').toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Parses `port`, `host:port` or `[v6]:port`; undefined when invalid. */
export function parseHostPort(text: string): { host: string; port: number } | undefined {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^\s:/\\[\]]+):)?(\d{1,5})$/.exec(text);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port > 65535) return undefined;
  const host = m[1] === undefined ? DEFAULT_HTTP_HOST : m[1].replace(/^\[|\]$/g, '');
  return { host, port };
}

/** Whether an argument after `--http` is meant as its address (not a folder named like a word). */
function looksLikeAddress(arg: string): boolean {
  return /^\d+$/.test(arg) || /^(\[[^\]]*\]|[^\s:/\\]+):\d*$/.test(arg);
}

type ValueKey =
  | 'blockBudgetBytes'
  | 'resultBudgetBytes'
  | 'pageSize'
  | 'maxLineBytes'
  | 'maxBodyBytes'
  | 'cacheBytes';

interface ValueOption {
  key: ValueKey;
  min: number;
  kind: 'size' | 'count';
  /** Only meaningful with this transport. */
  only?: 'stdio' | 'http';
  /** Why the minimum is what it is, for the error message. */
  why?: string;
}

/**
 * The smallest message cap: 1 KiB of it is kept for the envelope, and the rest must hold a
 * result (the tools list alone is over 1 KiB).
 */
export const MIN_MESSAGE_CAP_BYTES = 64 * 1024;

const CAP_WHY = '1k of it is kept for the message envelope and results need the rest';

const VALUE_OPTIONS: Record<string, ValueOption> = {
  '--block-budget': { key: 'blockBudgetBytes', min: 1, kind: 'size' },
  '--result-budget': { key: 'resultBudgetBytes', min: 1, kind: 'size' },
  '--page-size': { key: 'pageSize', min: 1, kind: 'count' },
  '--max-line-bytes': {
    key: 'maxLineBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
    only: 'stdio',
    why: CAP_WHY,
  },
  '--max-body-bytes': {
    key: 'maxBodyBytes',
    min: MIN_MESSAGE_CAP_BYTES,
    kind: 'size',
    only: 'http',
    why: CAP_WHY,
  },
  '--cache-bytes': { key: 'cacheBytes', min: 0, kind: 'size' },
};

const MAX_PAGE_SIZE = 10_000;

const FLAGS = new Set([
  '--help',
  '-h',
  '--stdio',
  '--no-legacy',
  '--quiet',
  '-q',
  '--no-watch',
  '--no-hard-links',
]);

function parseValue(name: string, option: ValueOption, raw: string): number | string {
  if (option.kind === 'count') {
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < option.min || n > MAX_PAGE_SIZE) {
      return `${name} expects a whole number from ${option.min} to ${MAX_PAGE_SIZE}, got ${JSON.stringify(raw)}`;
    }
    return n;
  }
  const bytes = parseSize(raw);
  if (bytes === undefined)
    return `${name} expects a size such as 65536, 512k, 1m or 4mib, got ${JSON.stringify(raw)}`;
  if (bytes < option.min) {
    const min =
      option.min >= 1024 ? `${option.min / 1024}k (${option.min} bytes)` : `${option.min} bytes`;
    return `${name} must be at least ${min}${option.why ? `: ${option.why}` : ''}, got ${JSON.stringify(raw)}`;
  }
  return bytes;
}

/**
 * Why `--allow-host` cannot take `raw`, or undefined. The Host guard compares host names without
 * their port, so `name:port` could never match: it is refused rather than silently useless.
 */
function allowHostProblem(raw: string): string | undefined {
  if (/[\s/\\@]/.test(raw))
    return `--allow-host expects a host name without scheme or path, got ${JSON.stringify(raw)}`;
  const bracketed = /^\[[0-9a-fA-F:.]+\](:\d*)?$/.exec(raw);
  if (bracketed) {
    return bracketed[1] === undefined
      ? undefined
      : `--allow-host expects a host name without a port (Host headers are compared without their port), got ${JSON.stringify(raw)}; use --allow-host ${raw.slice(0, raw.lastIndexOf(']') + 1)}`;
  }
  if (/^[^:[\]]+:\d*$/.test(raw)) {
    return `--allow-host expects a host name without a port (Host headers are compared without their port), got ${JSON.stringify(raw)}; use --allow-host ${raw.slice(0, raw.indexOf(':'))}`;
  }
  if (/[:[\]]/.test(raw))
    return `--allow-host expects a host name, or an IPv6 address in brackets such as [fe80::1], got ${JSON.stringify(raw)}`;
  return undefined;
}

/**
 * Parses the arguments after `serve`: `[DIR] [--stdio | --http [host:]port] [options]`.
 * Options take their value as the next argument or after `=`; `--` ends the options.
 */
export function parseServeArgs(argv: readonly string[]): ParsedServeArgs {
  const args: ServeArgs = {
    transport: { kind: 'http', host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT },
    allowHosts: [],
    legacy: true,
    quiet: false,
    watch: true,
    refuseHardLinks: false,
  };
  const error = (message: string): ParsedServeArgs => ({ kind: 'error', message });
  const used = new Set<string>();
  let stdio = false;
  let http = false;
  let positional = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (positional || !arg.startsWith('-') || arg === '-') {
      if (args.dir !== undefined)
        return error(`unexpected argument ${JSON.stringify(arg)}: serve takes one DIR`);
      if (arg === '') return error('DIR is empty');
      args.dir = arg;
      continue;
    }
    if (arg === '--') {
      positional = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    const inline = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : undefined;
    const isFlag = FLAGS.has(name);
    if (isFlag && inline !== undefined) return error(`${name} takes no value`);
    switch (name) {
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--stdio':
        stdio = true;
        continue;
      case '--no-legacy':
      case '--quiet':
      case '-q':
      case '--no-watch':
      case '--no-hard-links':
        used.add(name);
        if (name === '--no-legacy') args.legacy = false;
        else if (name === '--no-watch') args.watch = false;
        else if (name === '--no-hard-links') args.refuseHardLinks = true;
        else args.quiet = true;
        continue;
      case '--http': {
        http = true;
        const next = argv[i + 1];
        const raw =
          inline ?? (next !== undefined && looksLikeAddress(next) ? argv[++i] : undefined);
        if (raw === undefined) continue;
        const at = parseHostPort(raw);
        if (!at)
          return error(
            `--http expects [host:]port (e.g. 3333, 127.0.0.1:3333, [::1]:3333), got ${JSON.stringify(raw)}`,
          );
        args.transport = { kind: 'http', ...at };
        continue;
      }
      case '--allow-host': {
        const raw = inline ?? argv[++i];
        if (raw === undefined || raw === '' || (inline === undefined && raw.startsWith('-')))
          return error('--allow-host expects a host name, e.g. --allow-host mcp.example.com');
        const problem = allowHostProblem(raw);
        if (problem) return error(problem);
        args.allowHosts.push(raw);
        used.add(name);
        continue;
      }
      default: {
        const option = VALUE_OPTIONS[name];
        if (!option) return error(`unknown option ${JSON.stringify(name)}`);
        const raw = inline ?? argv[++i];
        if (raw === undefined || (inline === undefined && raw.startsWith('--')))
          return error(`${name} expects a value`);
        const value = parseValue(name, option, raw);
        if (typeof value === 'string') return error(value);
        args[option.key] = value;
        used.add(name);
      }
    }
  }
  if (stdio && http) return error('choose one of --stdio and --http');
  if (stdio) args.transport = { kind: 'stdio' };
  const kind = args.transport.kind;
  for (const name of used) {
    const only =
      VALUE_OPTIONS[name]?.only ??
      (name === '--allow-host' || name === '--no-legacy' ? 'http' : undefined);
    if (only !== undefined && only !== kind) return error(`${name} applies to --${only} only`);
  }
  return { kind: 'ok', args };
}
