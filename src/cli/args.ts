/** Argument parsing of `mcpkit serve`: pure, table-driven, one clear message per mistake. */
import { argTokens, type ArgToken } from './arg-tokens.js';
import { parseValue, VALUE_OPTIONS, type ValueKey } from './serve-options.js';
import { looksLikeAddress, parseHostPort } from './values.js';
import { AUTH_VALUE_FLAGS, authProblem, setAuthValue, type ServeAuthArgs } from './serve-auth.js';

export { parseDuration, parseHostPort, parseSize } from './values.js';
export { MIN_MESSAGE_CAP_BYTES } from './serve-options.js';

export type ServeTransport = { kind: 'stdio' } | { kind: 'http'; host: string; port: number };

/**
 * The parsed command line. Every value option (bytes, counts, milliseconds; see
 * `serve-options.ts`) is a number, absent when not given: the library's default then holds.
 */
export interface ServeArgs extends Partial<Record<ValueKey, number>> {
  /** The folder to serve; undefined: the example folder shipped with mcpkit. */
  dir?: string;
  /** DIR was the word right after `--http` (not address-like): a bad --http value if no such folder. */
  dirAfterHttp?: boolean;
  transport: ServeTransport;
  allowHosts: string[];
  legacy: boolean;
  quiet: boolean;
  watch: boolean;
  /** Refuse files with more than one hard link (`--no-hard-links`). */
  refuseHardLinks: boolean;
  /** Give memory back with one full collection when idle after a burst (`--no-idle-gc`: off). */
  idleGc: boolean;
  /** `--redis URL`: share change events, links and the signing secret with other instances. */
  redis?: string;
  /** `--redis-prefix`: the prefix of every Redis key and channel (default `mcpkit:`). */
  redisPrefix?: string;
  /** `--redis-ca FILE`: a CA certificate (PEM) to trust for `rediss://`. */
  redisCa?: string;
  /** `--index-dir DIR`: where the search index is saved and started from on the next run. */
  indexDir?: string;
  /** `--auth-*`: a protected endpoint (see serve-auth.ts). */
  auth: ServeAuthArgs;
  /** `--insecure-no-auth`: serve a non-loopback address without authorization. */
  insecureNoAuth: boolean;
}

export type ParsedServeArgs =
  { kind: 'ok'; args: ServeArgs } | { kind: 'help' } | { kind: 'error'; message: string };

export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3333;

/** The flags that take no value, by what they set. */
const FLAGS = new Set([
  '--help',
  '-h',
  '--stdio',
  '--http',
  '--no-legacy',
  '--quiet',
  '-q',
  '--no-watch',
  '--no-hard-links',
  '--no-idle-gc',
  '--insecure-no-auth',
]);
/** Options whose value is the next argument (or after `=`), whatever it looks like. */
const VALUE_NAMES = [
  'allow-host',
  'redis',
  'redis-prefix',
  'redis-ca',
  'index-dir',
  ...Object.keys(AUTH_VALUE_FLAGS).map((flag) => flag.slice(2)),
  ...Object.keys(VALUE_OPTIONS).map((flag) => flag.slice(2)),
];

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

/** What a bad Redis URL starts with, for the message (the rest may hold a password). */
function schemeOf(raw: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1];
  return scheme === undefined ? '' : `, got a ${scheme}:// URL`;
}

/** Why a Redis option cannot take `raw`, or undefined; a URL is never echoed with its credentials. */
function redisProblem(name: string, raw: string): string | undefined {
  if (name === '--redis' && !/^rediss?:\/\/[^/?#]/i.test(raw))
    return `--redis expects redis://[user:password@]host[:port][/db], or rediss://… for TLS${schemeOf(raw)}`;
  if (name === '--redis-prefix' && /\s/.test(raw))
    return `--redis-prefix expects a prefix without spaces, got ${JSON.stringify(raw)}`;
  return undefined;
}

/**
 * Parses the arguments after `serve`: `[DIR] [--stdio | --http [host:]port] [options]`.
 * Options take their value as the next argument or after `=`; `--` ends the options
 * (node:util parseArgs splits the words, every check is here).
 */
export function parseServeArgs(argv: readonly string[]): ParsedServeArgs {
  const args: ServeArgs = {
    transport: { kind: 'http', host: DEFAULT_HTTP_HOST, port: DEFAULT_HTTP_PORT },
    allowHosts: [],
    legacy: true,
    quiet: false,
    watch: true,
    refuseHardLinks: false,
    idleGc: true,
    auth: {},
    insecureNoAuth: false,
  };
  const error = (message: string): ParsedServeArgs => ({ kind: 'error', message });
  const used = new Set<string>();
  let stdio = false;
  let http = false;
  // The word right after --http that does not look like an address: DIR, or a bad address.
  let httpWord: number | undefined;
  const badHttp = (raw: string): ParsedServeArgs =>
    error(
      `--http expects HOST:PORT or PORT (e.g. 127.0.0.1:3333, [::1]:3333, 3333), got ${JSON.stringify(raw)}`,
    );
  const tokens = argTokens(argv, VALUE_NAMES, { h: 'help', q: 'quiet' });
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as ArgToken;
    if (token.kind === 'terminator') continue;
    if (token.kind === 'positional') {
      if (args.dir !== undefined) {
        // Two words, one of them after --http: that one was meant as its address.
        if (args.dirAfterHttp) return badHttp(args.dir);
        if (token.index === httpWord) return badHttp(token.value);
        return error(`unexpected argument ${JSON.stringify(token.value)}: serve takes one DIR`);
      }
      if (token.index === httpWord) args.dirAfterHttp = true;
      if (token.value === '') return error('DIR is empty');
      args.dir = token.value;
      continue;
    }
    const { flag: name, inline } = token;
    if (FLAGS.has(name) && inline && name !== '--http') return error(`${name} takes no value`);
    switch (name) {
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--stdio':
        stdio = true;
        continue;
      case '--insecure-no-auth':
        args.insecureNoAuth = true;
        used.add(name);
        continue;
      case '--no-legacy':
      case '--quiet':
      case '-q':
      case '--no-watch':
      case '--no-hard-links':
      case '--no-idle-gc':
        used.add(name);
        if (name === '--no-legacy') args.legacy = false;
        else if (name === '--no-watch') args.watch = false;
        else if (name === '--no-hard-links') args.refuseHardLinks = true;
        else if (name === '--no-idle-gc') args.idleGc = false;
        else args.quiet = true;
        continue;
      case '--http': {
        http = true;
        // Its address is optional: the next word is taken only when it looks like one.
        const next = tokens[t + 1];
        const raw = inline
          ? token.value
          : next?.kind === 'positional' &&
              next.index === token.index + 1 &&
              looksLikeAddress(next.value)
            ? (t++, next.value)
            : undefined;
        if (raw === undefined) {
          if (!inline && next?.kind === 'positional' && next.index === token.index + 1)
            httpWord = next.index;
          continue;
        }
        const at = parseHostPort(raw);
        if (!at) return badHttp(raw);
        args.transport = { kind: 'http', ...at };
        continue;
      }
      case '--allow-host': {
        const raw = token.value;
        if (raw === undefined || raw === '' || (!inline && raw.startsWith('-')))
          return error('--allow-host expects a host name, e.g. --allow-host mcp.example.com');
        const problem = allowHostProblem(raw);
        if (problem) return error(problem);
        args.allowHosts.push(raw);
        used.add(name);
        continue;
      }
      case '--redis':
      case '--redis-prefix':
      case '--redis-ca': {
        const raw = valueOf(token.value, inline);
        if (raw === undefined) return error(`${name} expects a value`);
        const problem = redisProblem(name, raw);
        if (problem) return error(problem);
        if (name === '--redis') args.redis = raw;
        else if (name === '--redis-prefix') args.redisPrefix = raw;
        else args.redisCa = raw;
        used.add(name);
        continue;
      }
      case '--index-dir': {
        const raw = valueOf(token.value, inline);
        if (raw === undefined)
          return error('--index-dir expects a folder, e.g. --index-dir ~/.cache/mcpkit');
        args.indexDir = raw;
        used.add(name);
        continue;
      }
      default: {
        if (Object.hasOwn(AUTH_VALUE_FLAGS, name)) {
          const raw = valueOf(token.value, inline);
          if (raw === undefined) return error(`${name} expects a value`);
          const problem = setAuthValue(args.auth, name, raw);
          if (problem) return error(problem);
          used.add(name);
          continue;
        }
        const option = Object.hasOwn(VALUE_OPTIONS, name) ? VALUE_OPTIONS[name] : undefined;
        if (!option) return error(`unknown option ${JSON.stringify(name)}`);
        const raw = token.value;
        if (raw === undefined || (!inline && raw.startsWith('--')))
          return error(`${name} expects a value`);
        const value = parseValue(name, option, raw);
        if (typeof value === 'string') return error(value);
        args[option.key] = value;
        used.add(name);
      }
    }
  }
  if (stdio && http) return error('choose one of --stdio and --http');
  if (used.has('--watch-debounce') && !args.watch)
    return error('--watch-debounce has no effect with --no-watch');
  for (const name of ['--redis-prefix', '--redis-ca'])
    if (used.has(name) && args.redis === undefined)
      return error(`${name} applies with --redis only`);
  if (args.redisCa !== undefined && !/^rediss:/i.test(args.redis ?? ''))
    return error('--redis-ca applies to a rediss:// URL (TLS) only');
  const authIssue = authProblem(args.auth, args.insecureNoAuth);
  if (authIssue) return error(authIssue);
  if (stdio) args.transport = { kind: 'stdio' };
  const kind = args.transport.kind;
  for (const name of used) {
    const only =
      VALUE_OPTIONS[name]?.only ??
      (name === '--allow-host' ||
      name === '--no-legacy' ||
      name === '--insecure-no-auth' ||
      Object.hasOwn(AUTH_VALUE_FLAGS, name)
        ? 'http'
        : undefined);
    if (only !== undefined && only !== kind) return error(`${name} applies to --${only} only`);
  }
  return { kind: 'ok', args };
}

/** An option's value; undefined when it has none: absent, empty, or the next option's name. */
function valueOf(raw: string | undefined, inline: boolean): string | undefined {
  return raw === undefined || raw === '' || (!inline && raw.startsWith('--')) ? undefined : raw;
}
