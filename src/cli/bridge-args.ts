/**
 * Argument parsing of `mcpkit bridge`: `[options] -- COMMAND ARGS…` (stdio upstream) or
 * `--url URL [options]` (HTTP upstream); also `--explain-profile NAME` and
 * `--print-config HOST [options] -- COMMAND…`. Pure; one clear message per mistake.
 */
import {
  DEFAULT_MAX_CURSOR_BYTES,
  DEFAULT_MAX_LIST_BYTES,
  DEFAULT_MAX_LIST_ITEMS,
} from '../client/options.js';
import { argTokens, type ArgToken } from './arg-tokens.js';
import type { HostArgs, HostTarget } from './host-args.js';
import { AUTH_VALUE_FLAGS, authProblem, setAuthValue, type ServeAuthArgs } from './serve-auth.js';
import {
  DEFAULT_PDF_MAX_BYTES,
  DEFAULT_PDF_MAX_PAGES,
  DEFAULT_PDF_TIMEOUT_MS,
  MAX_PDF_TIMEOUT_MS,
} from '../bridge/pdf/pdf-text.js';
import { looksLikeAddress, parseDuration, parseHostPort, parseSize } from './values.js';

export const DEFAULT_BRIDGE_MAX_LINK_BYTES = 256 * 1024;
export const DEFAULT_BRIDGE_TIMEOUT_MS = 30_000;
export const DEFAULT_BRIDGE_HTTP_PORT = 3334;

export interface BridgeArgs {
  /** `--profile NAME|FILE` (default `passthrough`); undefined when not given. */
  profile?: string;
  target: HostTarget;
  /** Upstream sign-in and limits, as `inspect` takes them. */
  upstream: Pick<
    HostArgs,
    | 'era'
    | 'timeoutMs'
    | 'auth'
    | 'open'
    | 'tokenEnv'
    | 'tokenFile'
    | 'maxListItems'
    | 'maxListBytes'
    | 'maxCursorBytes'
  >;
  downstream: { kind: 'stdio' } | { kind: 'http'; host: string; port: number };
  serveAuth: ServeAuthArgs;
  insecureNoAuth: boolean;
  /** `--forward-input`: forward the upstream's elicitation, sampling and roots requests. */
  forwardInput: boolean;
  /** `--input-ttl`: how long a 2026-07-28 host's call waits for its input (with --forward-input). */
  inputTtlMs?: number;
  /** `--max-parked-inputs`: most such calls waiting at once. */
  maxParkedInputs?: number;
  allowHosts: string[];
  maxLinkBytes: number;
  maxResultChars?: number;
  maxReadBytes?: number;
  log?: string;
  /** `--extract-pdf` and its limits (`--pdf-max-pages`, `--pdf-max-bytes`, `--pdf-timeout`). */
  extractPdf: boolean;
  pdfMaxPages: number;
  pdfMaxBytes: number;
  pdfTimeoutMs: number;
  /** `--print-config HOST`: print the host's configuration instead of running. */
  printConfig?: string;
  /** `--name NAME` (with --print-config): the server's key in the host's configuration. */
  name?: string;
  /** The words before `--` as given, for `--print-config` (without it and `--name`). */
  optionWords: string[];
}

export type ParsedBridgeArgs =
  | { kind: 'ok'; args: BridgeArgs }
  | { kind: 'help' }
  | { kind: 'explain'; profile: string }
  | { kind: 'error'; message: string };

const FLAGS = new Set([
  '--help',
  '-h',
  '--auth',
  '--open',
  '--stdio',
  '--http',
  '--insecure-no-auth',
  '--forward-input',
  '--extract-pdf',
]);
const VALUES = new Set([
  '--profile',
  '--url',
  '--era',
  '--timeout',
  '--token-env',
  '--token-file',
  '--max-list-items',
  '--max-list-bytes',
  '--max-cursor-bytes',
  '--max-link-bytes',
  '--max-result-chars',
  '--max-read-bytes',
  '--input-ttl',
  '--max-parked-inputs',
  '--log',
  '--explain-profile',
  '--print-config',
  '--name',
  '--allow-host',
  '--pdf-max-pages',
  '--pdf-max-bytes',
  '--pdf-timeout',
  ...Object.keys(AUTH_VALUE_FLAGS),
]);
const ERAS = ['auto', '2026-07-28', '2025-11-25'] as const;

function positiveInt(name: string, raw: string, size: boolean): number | string {
  const value = size ? parseSize(raw) : /^\d+$/.test(raw) ? Number(raw) : undefined;
  if (value === undefined || !Number.isSafeInteger(value) || value < 1)
    return size
      ? `${name} expects a size in bytes, at least 1 (e.g. 262144, 256KiB), got ${JSON.stringify(raw)}`
      : `${name} expects a whole number, at least 1, got ${JSON.stringify(raw)}`;
  return value;
}

function httpUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function parseBridgeArgs(argv: readonly string[]): ParsedBridgeArgs {
  const error = (message: string): ParsedBridgeArgs => ({ kind: 'error', message });
  const args: BridgeArgs = {
    target: { kind: 'http', url: '' },
    upstream: {
      era: 'auto',
      timeoutMs: DEFAULT_BRIDGE_TIMEOUT_MS,
      auth: false,
      open: false,
      maxListItems: DEFAULT_MAX_LIST_ITEMS,
      maxListBytes: DEFAULT_MAX_LIST_BYTES,
      maxCursorBytes: DEFAULT_MAX_CURSOR_BYTES,
    },
    downstream: { kind: 'stdio' },
    serveAuth: {},
    insecureNoAuth: false,
    forwardInput: false,
    allowHosts: [],
    maxLinkBytes: DEFAULT_BRIDGE_MAX_LINK_BYTES,
    extractPdf: false,
    pdfMaxPages: DEFAULT_PDF_MAX_PAGES,
    pdfMaxBytes: DEFAULT_PDF_MAX_BYTES,
    pdfTimeoutMs: DEFAULT_PDF_TIMEOUT_MS,
    optionWords: [],
  };
  let url: string | undefined;
  let command: string[] | undefined;
  let explain: string | undefined;
  const tokens = argTokens(
    argv,
    [...VALUES].map((f) => f.slice(2)),
    { h: 'help' },
  );
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as ArgToken;
    if (token.kind === 'terminator') {
      command = argv.slice(token.index + 1);
      break;
    }
    if (token.kind === 'positional')
      return error(
        `unexpected argument ${JSON.stringify(token.value)}: give the upstream's command after "--" (mcpkit bridge -- node server.js) or its URL with --url`,
      );
    const { flag: name, inline } = token;
    const words = inline ? [argv[token.index] as string] : [name];
    if (FLAGS.has(name)) {
      if (inline && name !== '--http') return error(`${name} takes no value`);
      if (name === '--help' || name === '-h') return { kind: 'help' };
      if (name === '--auth') args.upstream.auth = true;
      else if (name === '--open') args.upstream.open = true;
      else if (name === '--insecure-no-auth') args.insecureNoAuth = true;
      else if (name === '--forward-input') args.forwardInput = true;
      else if (name === '--extract-pdf') args.extractPdf = true;
      else if (name === '--stdio') args.downstream = { kind: 'stdio' };
      else {
        const next = tokens[t + 1];
        const raw = inline
          ? token.value
          : next?.kind === 'positional' &&
              next.index === token.index + 1 &&
              looksLikeAddress(next.value)
            ? (t++, next.value)
            : undefined;
        if (raw !== undefined && !inline) words.push(raw);
        const at =
          raw === undefined
            ? { host: '127.0.0.1', port: DEFAULT_BRIDGE_HTTP_PORT }
            : parseHostPort(raw);
        if (!at)
          return error(
            `--http expects [host:]port (e.g. 3334, 127.0.0.1:3334), got ${JSON.stringify(raw)}`,
          );
        args.downstream = { kind: 'http', ...at };
      }
      args.optionWords.push(...words);
      continue;
    }
    if (!VALUES.has(name)) return error(`unknown option ${JSON.stringify(name)} for bridge`);
    const raw = token.value;
    if (raw === undefined || raw === '' || (!inline && raw.startsWith('--')))
      return error(`${name} expects a value`);
    if (!inline) words.push(raw);
    const problem = setValue(args, name, raw);
    if (typeof problem === 'string') return error(problem);
    if (name === '--url') url = raw;
    if (name === '--explain-profile') explain = raw;
    if (name !== '--print-config' && name !== '--name' && name !== '--explain-profile')
      args.optionWords.push(...words);
  }
  if (explain !== undefined) return { kind: 'explain', profile: explain };
  if (command !== undefined) {
    const [cmd, ...rest] = command;
    if (cmd === undefined || cmd === '')
      return error(
        `nothing after "--": give the upstream server's command, e.g. -- node server.js`,
      );
    if (url !== undefined) return error('give either --url or a command after "--", not both');
    args.target = { kind: 'stdio', command: cmd, args: rest };
  } else if (url !== undefined) {
    const href = httpUrl(url);
    if (href === undefined)
      return error(`--url expects an http:// or https:// URL, got ${JSON.stringify(url)}`);
    args.target = { kind: 'http', url: href };
  } else {
    return error(
      'bridge needs an upstream server: its command after "--" (mcpkit bridge -- node server.js) or --url https://…',
    );
  }
  const signIn = [
    args.upstream.auth && '--auth',
    args.upstream.tokenEnv !== undefined && '--token-env',
    args.upstream.tokenFile !== undefined && '--token-file',
  ].filter(Boolean);
  if (signIn.length > 1)
    return error(`${signIn.join(' and ')} do not go together: give one way to sign in`);
  if (args.upstream.open && !args.upstream.auth) return error('--open applies with --auth only');
  if (signIn.length > 0 && args.target.kind !== 'http')
    return error(`${String(signIn[0])} applies to an upstream --url, not to a stdio server`);
  const pdfLimit = ['--pdf-max-pages', '--pdf-max-bytes', '--pdf-timeout'].find((f) =>
    args.optionWords.some((w) => w === f || w.startsWith(`${f}=`)),
  );
  if (pdfLimit !== undefined && !args.extractPdf)
    return error(`${pdfLimit} applies with --extract-pdf only`);
  const inputLimit = ['--input-ttl', '--max-parked-inputs'].find((f) =>
    args.optionWords.some((w) => w === f || w.startsWith(`${f}=`)),
  );
  if (inputLimit !== undefined && !args.forwardInput)
    return error(`${inputLimit} applies with --forward-input only`);
  if (args.name !== undefined && args.printConfig === undefined)
    return error('--name applies with --print-config only');
  const authIssue = authProblem(args.serveAuth, args.insecureNoAuth);
  if (authIssue) return error(authIssue);
  const httpOnly =
    args.insecureNoAuth || args.allowHosts.length > 0 || Object.keys(args.serveAuth).length > 0;
  if (httpOnly && args.downstream.kind !== 'http')
    return error('--auth-*, --allow-host and --insecure-no-auth apply to --http only');
  return { kind: 'ok', args };
}

/** Sets one value option; returns the problem, if any. */
function setValue(args: BridgeArgs, name: string, raw: string): string | undefined {
  if (Object.hasOwn(AUTH_VALUE_FLAGS, name)) return setAuthValue(args.serveAuth, name, raw);
  switch (name) {
    case '--profile':
      args.profile = raw;
      return undefined;
    case '--url':
    case '--explain-profile':
      return undefined;
    case '--print-config':
      args.printConfig = raw;
      return undefined;
    case '--name':
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw))
        return `--name expects letters, digits, "-", "_" or ".", got ${JSON.stringify(raw)}`;
      args.name = raw;
      return undefined;
    case '--log':
      args.log = raw;
      return undefined;
    case '--allow-host':
      args.allowHosts.push(raw);
      return undefined;
    case '--era':
      if (!(ERAS as readonly string[]).includes(raw))
        return `--era expects one of ${ERAS.join(', ')}, got ${JSON.stringify(raw)}`;
      args.upstream.era = raw as HostArgs['era'];
      return undefined;
    case '--pdf-timeout': {
      const ms = parseDuration(raw);
      if (ms === undefined || ms <= 0)
        return `--pdf-timeout expects a number of seconds (or 500ms, 2m), more than 0, got ${JSON.stringify(raw)}`;
      if (ms > MAX_PDF_TIMEOUT_MS)
        return `--pdf-timeout is at most ${MAX_PDF_TIMEOUT_MS / 1000} seconds (1h), got ${JSON.stringify(raw)}`;
      args.pdfTimeoutMs = ms;
      return undefined;
    }
    case '--timeout': {
      const ms = parseDuration(raw);
      if (ms === undefined || ms <= 0)
        return `--timeout expects a number of seconds (or 500ms, 2m), more than 0, got ${JSON.stringify(raw)}`;
      args.upstream.timeoutMs = ms;
      return undefined;
    }
    case '--input-ttl': {
      const ms = parseDuration(raw);
      if (ms === undefined || ms <= 0)
        return `--input-ttl expects a number of seconds (or 500ms, 2m), more than 0, got ${JSON.stringify(raw)}`;
      args.inputTtlMs = ms;
      return undefined;
    }
    case '--token-env':
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw))
        return `--token-env expects the name of an environment variable, got ${JSON.stringify(raw)}`;
      args.upstream.tokenEnv = raw;
      return undefined;
    case '--token-file':
      args.upstream.tokenFile = raw;
      return undefined;
  }
  const size = ![
    '--max-list-items',
    '--max-result-chars',
    '--pdf-max-pages',
    '--max-parked-inputs',
  ].includes(name);
  const value = positiveInt(name, raw, size);
  if (typeof value === 'string') return value;
  if (name === '--max-list-items') args.upstream.maxListItems = value;
  else if (name === '--max-list-bytes') args.upstream.maxListBytes = value;
  else if (name === '--max-cursor-bytes') args.upstream.maxCursorBytes = value;
  else if (name === '--max-link-bytes') args.maxLinkBytes = value;
  else if (name === '--max-read-bytes') args.maxReadBytes = value;
  else if (name === '--pdf-max-pages') args.pdfMaxPages = value;
  else if (name === '--pdf-max-bytes') args.pdfMaxBytes = value;
  else if (name === '--max-parked-inputs') args.maxParkedInputs = value;
  else args.maxResultChars = value;
  return undefined;
}
