/** What `mcpkit serve` prints on start: where it listens, a stdio client configuration, the Inspector command. */
import { formatBytes } from '../providers/filesystem/index.js';

export interface BannerInput {
  /** The served folder, absolute. */
  dir: string;
  /** Files and bytes listed; absent while the folder is still walked. */
  files?: number;
  bytes?: number;
  /**
   * `inboundBytes`: the largest line or body accepted; `outboundBytes`: the largest message
   * sent; `capBytes`: the most one result may take (the outbound cap less the envelope).
   */
  transport:
    | { kind: 'stdio'; inboundBytes: number; outboundBytes: number; capBytes: number }
    | {
        kind: 'http';
        url: string;
        inboundBytes: number;
        outboundBytes: number;
        capBytes: number;
        legacy: boolean;
      };
  blockBudgetBytes: number;
  resultBudgetBytes: number;
  /** How to start this server over stdio: the node binary, the CLI script and its arguments. */
  stdioCommand: { command: string; args: string[] };
  /** Key of the server in the pasted configuration. */
  serverName: string;
  /** With `--redis`: what this instance shares, and through what. */
  shared?: SharedInfo;
  /** HTTP: the line saying what protects the endpoint (`--auth-*`), or that nothing does. */
  auth?: string;
}

/** What the banner says of the sharing: where (credentials masked) and where the secret came from. */
export interface SharedInfo {
  where: string;
  prefix: string;
  secretSource: 'env' | 'created' | 'redis';
}

const SECRET_FROM: Record<SharedInfo['secretSource'], string> = {
  env: 'from MCPKIT_SECRET',
  created: 'created in Redis (MCPKIT_SECRET is safer: whoever reads Redis could forge it)',
  redis: 'read from Redis (MCPKIT_SECRET is safer: whoever reads Redis could forge it)',
};

/** The banner's lines about the sharing. */
export function sharedLines(info: SharedInfo): string[] {
  return [
    `  shared     through Redis at ${info.where} (prefix ${info.prefix}): change events, links, the signing secret`,
    `  secret     ${SECRET_FROM[info.secretSource]}`,
  ];
}

/** Quotes an argument for a POSIX shell when it needs it. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A ready-to-paste `mcpServers` entry (Claude Desktop, Cursor, VS Code and most hosts read this shape). */
export function stdioConfig(serverName: string, command: string, args: readonly string[]): string {
  return JSON.stringify({ mcpServers: { [serverName]: { command, args } } }, null, 2);
}

const INSPECTOR = 'npx @modelcontextprotocol/inspector';
/** The Inspector's flag for the 2026-07-28 era (its default is 2025-11-25). */
const MODERN = '--protocol-era modern';
/** The Inspector 2.x needs this Node (its `engines`); npx resolves an old 0.x on an older one. */
export const INSPECTOR_MIN_NODE = '22.19.0';
/** The last Inspector that installs on Node 20 (no `engines`; 0.16 and later need Node 22). */
export const INSPECTOR_FOR_OLD_NODE = '0.15.0';

/** Whether `version` (e.g. `20.19.1`, `v22.19.0`) is at least `min`. */
export function nodeAtLeast(version: string, min: string): boolean {
  const parts = (v: string): number[] =>
    v
      .replace(/^v/, '')
      .split('.')
      .map((n) => Number.parseInt(n, 10) || 0);
  const have = parts(version);
  const need = parts(min);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) !== (need[i] ?? 0)) return (have[i] ?? 0) > (need[i] ?? 0);
  }
  return true;
}

/**
 * The commands that open the official MCP Inspector on this server, for the Node that runs
 * them (`nodeVersion`, default this process's). Node >= 22.19: Inspector 2.x, its UI in either
 * era and its `--cli` (one method per run; the server's command line after `--` is passed as
 * is). Older Node: Inspector 0.15.0 pinned (what npx would pick anyway, said plainly), which
 * speaks the 2025 era only; `modern` is then undefined and `note` says why.
 */
export function inspectorCommands(
  input: Pick<BannerInput, 'transport' | 'stdioCommand' | 'serverName'>,
  nodeVersion: string = process.versions.node,
): { legacy: string; modern?: string; cli: string; note?: string } {
  const current = nodeAtLeast(nodeVersion, INSPECTOR_MIN_NODE);
  const stdioTarget = [input.stdioCommand.command, ...input.stdioCommand.args]
    .map(shellQuote)
    .join(' ');
  if (!current) {
    const old = `${INSPECTOR}@${INSPECTOR_FOR_OLD_NODE}`;
    const note =
      `Inspector 2.x (2026-07-28) needs Node >= ${INSPECTOR_MIN_NODE}, this is Node ${nodeVersion.replace(/^v/, '')}: ` +
      `${INSPECTOR_FOR_OLD_NODE}, the last for Node 20, speaks the 2025 revisions only`;
    if (input.transport.kind === 'http') {
      const url = shellQuote(input.transport.url);
      return {
        legacy: `${old}   # then in its page: Transport Type "Streamable HTTP", URL ${url}`,
        cli: `${old} --cli ${url} --transport http --method tools/list`,
        note,
      };
    }
    return {
      legacy: `${old} -- ${stdioTarget}`,
      cli: `${old} --cli --config mcp.json --server ${shellQuote(input.serverName)} --method tools/list`,
      note,
    };
  }
  if (input.transport.kind === 'http') {
    const target = `--transport http --server-url ${shellQuote(input.transport.url)}`;
    return {
      legacy: `${INSPECTOR} ${target}`,
      modern: `${INSPECTOR} ${target} ${MODERN}`,
      cli: `${INSPECTOR} --cli ${target} ${MODERN} --method tools/list`,
    };
  }
  return {
    legacy: `${INSPECTOR} -- ${stdioTarget}`,
    modern: `${INSPECTOR} ${MODERN} -- ${stdioTarget}`,
    cli: `${INSPECTOR} --cli ${MODERN} --method tools/list -- ${stdioTarget}`,
  };
}

function folderSize({ files, bytes }: Pick<BannerInput, 'files' | 'bytes'>): string {
  if (files === undefined) return 'listed in the background as it is walked';
  return `${files.toLocaleString('en-US')} file${files === 1 ? '' : 's'}, ${formatBytes(bytes ?? 0)}`;
}

/** The banner, as lines of text (no trailing newline); `nodeVersion` picks the Inspector commands. */
export function banner(input: BannerInput, nodeVersion: string = process.versions.node): string {
  const t = input.transport;
  const inspector = inspectorCommands(input, nodeVersion);
  const oldConfig = inspector.note !== undefined && t.kind === 'stdio';
  const where =
    t.kind === 'http'
      ? `Listening on ${t.url} (Streamable HTTP: 2026-07-28${t.legacy ? ', and 2025-11-25 sessions' : ' only'})`
      : 'Serving over stdio: protocol messages on stdout, this text on stderr';
  const lines = [
    `mcpkit serve: ${input.dir} (${folderSize(input)})`,
    where,
    `  resources  file:///{+path}, paths relative to the folder`,
    '  tools      search, read        prompts  review-file, survey',
    `  policy     embed up to ${formatBytes(input.blockBudgetBytes)} per file and ${formatBytes(input.resultBudgetBytes)} per result, ` +
      `link beyond; at most ${formatBytes(t.capBytes)} per result on this transport`,
    `  caps       out: ${formatBytes(t.outboundBytes)} per message, what the client can take (--max-response-bytes); ` +
      `in: ${formatBytes(t.inboundBytes)} per ${t.kind === 'http' ? 'request body (--max-body-bytes)' : 'line (--max-line-bytes)'}`,
    `  parts      a file too large for one message reads in parts: file:///{+path}{?offset,length,version}`,
    ...(input.shared ? sharedLines(input.shared) : []),
    ...(input.auth ? [`  ${input.auth}`] : []),
    '',
    'To use it from a stdio host, paste into its MCP configuration:',
    stdioConfig(input.serverName, input.stdioCommand.command, input.stdioCommand.args),
    '',
    ...(inspector.modern === undefined
      ? [`To open it in the MCP Inspector (${inspector.note ?? ''}):`, `  ${inspector.legacy}`]
      : [
          'To open it in the MCP Inspector (2025-11-25, its default; or 2026-07-28):',
          `  ${inspector.legacy}`,
          `  ${inspector.modern}`,
        ]),
    oldConfig
      ? 'Or from a terminal, one method per run, with the configuration above saved as mcp.json:'
      : 'Or from a terminal, one method per run:',
    `  ${inspector.cli}`,
  ];
  return lines.join('\n');
}
