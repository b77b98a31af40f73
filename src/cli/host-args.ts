/**
 * Argument parsing of the host-side commands, `mcpkit inspect` and `mcpkit audit`: pure, one clear
 * message per mistake. A target is an `http(s)` URL (the first or last word) or, after `--`, the command
 * line of a stdio server.
 */
import { isIP } from 'node:net';
import {
  DEFAULT_MAX_CURSOR_BYTES,
  DEFAULT_MAX_LIST_BYTES,
  DEFAULT_MAX_LIST_ITEMS,
} from '../client/options.js';
import { argTokens } from './arg-tokens.js';
import { parseDuration, parseSize } from './values.js';

export type HostTarget =
  { kind: 'http'; url: string } | { kind: 'stdio'; command: string; args: string[] };

export interface HostArgs {
  target: HostTarget;
  /** The positional words that are not the URL: `['read', 'file:///x']`, `['call', 'T', '{…}']`, `[]`. */
  verb: string[];
  json: boolean;
  era: 'auto' | '2026-07-28' | '2025-11-25';
  /** `--timeout SECONDS` (default 30 s): each request, and each guarded fetch. */
  timeoutMs: number;
  /** `--budget BYTES` (default 4 MiB): the most read in one run. */
  budgetBytes: number;
  /** `--block-budget BYTES` (default 1 MiB, audit only): the largest embedded block not flagged. */
  blockBudgetBytes: number;
  /** `--resolve none|ask|all` (inspect only, default none). */
  resolve: 'none' | 'ask' | 'all';
  fetchUrls: boolean;
  /** `--verbose`: a stdio server's stderr is shown even when nothing failed. */
  verbose: boolean;
  /** `--allow-address HOST|IP|CIDR`, repeatable; IPv6 given without brackets. */
  allowAddresses: string[];
  /** `--call NAME=JSON` (audit only), repeatable, in the order given. */
  calls: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** `--max-list-items N` (default 50,000): entries of one list over all its pages. */
  maxListItems: number;
  /** `--max-list-bytes BYTES` (default 64 MiB): those entries' bytes as JSON. */
  maxListBytes: number;
  /** `--max-cursor-bytes BYTES` (default 64 KiB): the largest cursor followed. */
  maxCursorBytes: number;
  /** `--max-requests N` (audit only, default 20,000): requests of one walk in all. */
  maxRequests: number;
  /** `--max-requests-per-kind N` (audit only, default 5,000): requests of one kind (see audit-requests.ts). */
  maxRequestsPerKind: number;
  /** `--auth`: sign in interactively (OAuth) when the server asks; tokens kept 0600. */
  auth: boolean;
  /** `--open` (with `--auth`): open the authorization URL in the browser too. */
  open: boolean;
  /** `--token-env VAR`: a ready bearer token from this environment variable. */
  tokenEnv?: string;
  /** `--token-file FILE`: a ready bearer token from this file (its first line). */
  tokenFile?: string;
  /** `--html FILE` (audit only): the HTML report, written to FILE; `-` is stdout. */
  html?: string;
}

export type HostCommand = 'inspect' | 'audit';

export type ParsedHostArgs =
  { kind: 'ok'; args: HostArgs } | { kind: 'help' } | { kind: 'error'; message: string };

export const DEFAULT_HOST_TIMEOUT_MS = 30_000;
export const DEFAULT_HOST_BUDGET_BYTES = 4 * 1024 * 1024;
export const DEFAULT_HOST_BLOCK_BUDGET_BYTES = 1024 * 1024;
export const DEFAULT_AUDIT_MAX_REQUESTS = 20_000;
export const DEFAULT_AUDIT_MAX_REQUESTS_PER_KIND = 5_000;

type LimitKey =
  'maxListItems' | 'maxListBytes' | 'maxCursorBytes' | 'maxRequests' | 'maxRequestsPerKind';

/** The options that take a count or a size, at least 1. */
const LIMITS: Record<string, { key: LimitKey; kind: 'count' | 'size' }> = {
  '--max-list-items': { key: 'maxListItems', kind: 'count' },
  '--max-list-bytes': { key: 'maxListBytes', kind: 'size' },
  '--max-cursor-bytes': { key: 'maxCursorBytes', kind: 'size' },
  '--max-requests': { key: 'maxRequests', kind: 'count' },
  '--max-requests-per-kind': { key: 'maxRequestsPerKind', kind: 'count' },
};

const ERAS = ['auto', '2026-07-28', '2025-11-25'] as const;
const RESOLVE = ['none', 'ask', 'all'] as const;

/** Which command each option belongs to; an option of the other command is an error. */
const OPTIONS: Record<string, { value: boolean; only?: HostCommand }> = {
  '--help': { value: false },
  '-h': { value: false },
  '--json': { value: false },
  '--fetch-urls': { value: false },
  '--verbose': { value: false },
  '--era': { value: true },
  '--timeout': { value: true },
  '--budget': { value: true },
  '--allow-address': { value: true },
  '--block-budget': { value: true, only: 'audit' },
  '--call': { value: true, only: 'audit' },
  '--html': { value: true, only: 'audit' },
  '--max-list-items': { value: true },
  '--max-list-bytes': { value: true },
  '--max-cursor-bytes': { value: true },
  '--max-requests': { value: true, only: 'audit' },
  '--max-requests-per-kind': { value: true, only: 'audit' },
  '--resolve': { value: true, only: 'inspect' },
  '--auth': { value: false },
  '--open': { value: false },
  '--token-env': { value: true },
  '--token-file': { value: true },
};

/** The options that take a value, as parseArgs names them. */
const VALUE_NAMES = Object.keys(OPTIONS)
  .filter((flag) => OPTIONS[flag]?.value === true)
  .map((flag) => flag.slice(2));

const LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;

/**
 * Why `--allow-address` cannot take `raw`, or undefined. Takes a host name (as a URL writes it,
 * a trailing dot allowed), an IPv4 or IPv6 address (brackets allowed) or a CIDR such as
 * `10.0.0.0/8` or `fd00::/8`.
 */
export function allowAddressProblem(raw: string): string | undefined {
  const bad = `--allow-address expects a host name, an IP address or a CIDR (e.g. 10.0.0.0/8), got ${JSON.stringify(raw)}`;
  const slash = raw.indexOf('/');
  if (slash >= 0) {
    const ip = raw.slice(0, slash);
    const bits = raw.slice(slash + 1);
    const family = isIP(ip);
    if (family === 0 || !/^\d{1,3}$/.test(bits)) return bad;
    const max = family === 4 ? 32 : 128;
    if (Number(bits) > max) return `${bad}: a /${bits} prefix is longer than ${max} bits`;
    return undefined;
  }
  if (isIP(raw) !== 0) return undefined;
  const name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  if (name.length === 0 || name.length > 253) return bad;
  // All-numeric names are odd spellings of addresses (127.1), which the guard refuses anyway.
  if (/^[\d.]+$/.test(name) || /^0x/i.test(name)) return bad;
  return name.split('.').every((label) => LABEL.test(label)) ? undefined : bad;
}

/** `[::1]` → `::1`; everything else as given. */
function unbracket(raw: string): string {
  return /^\[[0-9a-fA-F:.]+\](\/\d+)?$/.test(raw) ? raw.replace(/^\[|\](?=\/|$)/g, '') : raw;
}

function parseCall(raw: string): HostArgs['calls'][number] | string {
  const eq = raw.indexOf('=');
  const name = eq < 0 ? raw : raw.slice(0, eq);
  if (name === '')
    return `--call expects NAME=JSON (e.g. --call 'search={"query":"x"}'), got ${JSON.stringify(raw)}`;
  if (eq < 0) return { name, arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw.slice(eq + 1));
  } catch (error) {
    return `--call ${name}: the arguments are not JSON (${(error as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `--call ${name}: the arguments must be a JSON object, e.g. ${name}={"key":"value"}`;
  return { name, arguments: value as Record<string, unknown> };
}

function parseUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/**
 * Parses the arguments after `inspect` or `audit`: `URL [VERB …] [options]`, `[VERB …] URL
 * [options]` or `[VERB …] [options] -- COMMAND ARGS…`. Options take their value as the next argument or after
 * `=`; everything after `--` is the server's command line, passed as is (node:util parseArgs
 * splits the words, every check is here).
 */
export function parseHostArgs(command: HostCommand, argv: readonly string[]): ParsedHostArgs {
  const args: HostArgs = {
    target: { kind: 'http', url: '' },
    verb: [],
    json: false,
    era: 'auto',
    timeoutMs: DEFAULT_HOST_TIMEOUT_MS,
    budgetBytes: DEFAULT_HOST_BUDGET_BYTES,
    blockBudgetBytes: DEFAULT_HOST_BLOCK_BUDGET_BYTES,
    resolve: 'none',
    fetchUrls: false,
    verbose: false,
    allowAddresses: [],
    calls: [],
    maxListItems: DEFAULT_MAX_LIST_ITEMS,
    maxListBytes: DEFAULT_MAX_LIST_BYTES,
    maxCursorBytes: DEFAULT_MAX_CURSOR_BYTES,
    maxRequests: DEFAULT_AUDIT_MAX_REQUESTS,
    maxRequestsPerKind: DEFAULT_AUDIT_MAX_REQUESTS_PER_KIND,
    auth: false,
    open: false,
  };
  const error = (message: string): ParsedHostArgs => ({ kind: 'error', message });
  const positional: string[] = [];
  let server: string[] | undefined;
  const tokens = argTokens(argv, VALUE_NAMES, { h: 'help' });
  for (const token of tokens) {
    if (token.kind === 'terminator') {
      // Everything after `--` is the server's command line, as it is.
      server = argv.slice(token.index + 1);
      break;
    }
    if (token.kind === 'positional') {
      positional.push(token.value);
      continue;
    }
    const { flag: name, inline } = token;
    const option = Object.hasOwn(OPTIONS, name) ? OPTIONS[name] : undefined;
    if (!option) return error(`unknown option ${JSON.stringify(name)} for ${command}`);
    if (option.only && option.only !== command)
      return error(`${name} applies to mcpkit ${option.only} only`);
    if (!option.value) {
      if (inline) return error(`${name} takes no value`);
      if (name === '--help' || name === '-h') return { kind: 'help' };
      if (name === '--json') args.json = true;
      else if (name === '--auth') args.auth = true;
      else if (name === '--open') args.open = true;
      else if (name === '--verbose') args.verbose = true;
      else args.fetchUrls = true;
      continue;
    }
    const raw = token.value;
    if (raw === undefined || (!inline && raw.startsWith('--')))
      return error(`${name} expects a value`);
    const problem = setValue(args, name, raw);
    if (problem) return error(problem);
  }
  if (server !== undefined) {
    const [cmd, ...rest] = server;
    if (cmd === undefined || cmd === '')
      return error(`nothing after "--": give the server's command, e.g. -- node server.js`);
    if (positional[0] !== undefined && parseUrl(positional[0]) !== undefined)
      return error('give either a URL or a command after "--", not both');
    args.target = { kind: 'stdio', command: cmd, args: rest };
    args.verb = positional;
  } else {
    const first = positional[0];
    if (first === undefined)
      return error(
        `${command} needs a server: a URL (mcpkit ${command} http://127.0.0.1:3333/mcp) or a command after "--" (mcpkit ${command} -- node server.js)`,
      );
    // The URL first (`URL call T`) or last (`call T URL`), as for a stdio server's verb.
    const firstUrl = parseUrl(first);
    const last = positional.length > 1 ? (positional.at(-1) as string) : undefined;
    const url = firstUrl ?? (last === undefined ? undefined : parseUrl(last));
    if (url === undefined)
      return error(
        `expected an http:// or https:// URL, first or after the verb, got ${JSON.stringify(first)} (a stdio server goes after "--")`,
      );
    args.target = { kind: 'http', url };
    args.verb = firstUrl !== undefined ? positional.slice(1) : positional.slice(0, -1);
  }
  const problem = authProblem(args);
  if (problem) return error(problem);
  if (args.html === '-' && args.json)
    return error('--html - and --json both write to stdout: give --html a FILE');
  if (command === 'audit' && args.verb.length > 0)
    return error(`unexpected argument ${JSON.stringify(args.verb[0])}: audit takes no verb`);
  return { kind: 'ok', args };
}

/** Why the sign-in options do not go together, or undefined. */
function authProblem(args: HostArgs): string | undefined {
  const given = [
    args.auth ? '--auth' : undefined,
    args.tokenEnv === undefined ? undefined : '--token-env',
    args.tokenFile === undefined ? undefined : '--token-file',
  ].filter((x) => x !== undefined);
  if (given.length > 1) return `${given.join(' and ')} do not go together: give one way to sign in`;
  if (args.open && !args.auth) return '--open applies with --auth only';
  if (given.length > 0 && args.target.kind !== 'http')
    return `${given[0]} applies to an http(s) URL, not to a stdio server`;
  return undefined;
}

/** Sets one value option; returns the problem, if any. */
function setValue(args: HostArgs, name: string, raw: string): string | undefined {
  const limit = Object.hasOwn(LIMITS, name) ? LIMITS[name] : undefined;
  if (limit) {
    const value = limit.kind === 'size' ? parseSize(raw) : /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (value === undefined || !Number.isSafeInteger(value) || value < 1)
      return limit.kind === 'size'
        ? `${name} expects a size in bytes, at least 1 (e.g. 64KiB, 1MiB), got ${JSON.stringify(raw)}`
        : `${name} expects a whole number, at least 1, got ${JSON.stringify(raw)}`;
    args[limit.key] = value;
    return undefined;
  }
  switch (name) {
    case '--token-env':
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw))
        return `--token-env expects the name of an environment variable, got ${JSON.stringify(raw)}`;
      args.tokenEnv = raw;
      return undefined;
    case '--token-file':
      args.tokenFile = raw;
      return undefined;
    case '--html':
      if (raw === '') return '--html expects a FILE to write the report to (or - for stdout)';
      args.html = raw;
      return undefined;
    case '--era':
      if (!(ERAS as readonly string[]).includes(raw))
        return `--era expects one of ${ERAS.join(', ')}, got ${JSON.stringify(raw)}`;
      args.era = raw as HostArgs['era'];
      return undefined;
    case '--resolve':
      if (!(RESOLVE as readonly string[]).includes(raw))
        return `--resolve expects one of ${RESOLVE.join(', ')}, got ${JSON.stringify(raw)}`;
      args.resolve = raw as HostArgs['resolve'];
      return undefined;
    case '--timeout': {
      const ms = parseDuration(raw);
      if (ms === undefined || ms <= 0)
        return `--timeout expects a number of seconds (or 500ms, 2m), more than 0, got ${JSON.stringify(raw)}`;
      args.timeoutMs = ms;
      return undefined;
    }
    case '--budget':
    case '--block-budget': {
      const bytes = parseSize(raw);
      if (bytes === undefined)
        return `${name} expects a size in bytes (e.g. 4MiB, 512KiB, 1000000), got ${JSON.stringify(raw)}`;
      if (name === '--budget') args.budgetBytes = bytes;
      else args.blockBudgetBytes = bytes;
      return undefined;
    }
    case '--allow-address': {
      const value = unbracket(raw);
      const problem = allowAddressProblem(value);
      if (problem) return problem;
      args.allowAddresses.push(value);
      return undefined;
    }
    case '--call': {
      const call = parseCall(raw);
      if (typeof call === 'string') return call;
      args.calls.push(call);
      return undefined;
    }
  }
  return `unknown option ${JSON.stringify(name)}`;
}
