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

/**
 * The commands that open the official MCP Inspector on this server: its UI in either era, and
 * its `--cli` (one method per run). Over stdio the CLI cannot pass flags to the server on its
 * command line, so it reads the pasted configuration from a file (`mcp.json`).
 */
export function inspectorCommands(
  input: Pick<BannerInput, 'transport' | 'stdioCommand' | 'serverName'>,
): { legacy: string; modern: string; cli: string } {
  if (input.transport.kind === 'http') {
    const target = `--transport http --server-url ${shellQuote(input.transport.url)}`;
    return {
      legacy: `${INSPECTOR} ${target}`,
      modern: `${INSPECTOR} ${target} ${MODERN}`,
      cli: `${INSPECTOR} --cli ${target} ${MODERN} --method tools/list`,
    };
  }
  const { command, args } = input.stdioCommand;
  const target = [command, ...args].map(shellQuote).join(' ');
  return {
    legacy: `${INSPECTOR} -- ${target}`,
    modern: `${INSPECTOR} ${MODERN} -- ${target}`,
    cli: `${INSPECTOR} --cli --config mcp.json --server ${shellQuote(input.serverName)} ${MODERN} --method tools/list`,
  };
}

function folderSize({ files, bytes }: Pick<BannerInput, 'files' | 'bytes'>): string {
  if (files === undefined) return 'listed in the background as it is walked';
  return `${files.toLocaleString('en-US')} file${files === 1 ? '' : 's'}, ${formatBytes(bytes ?? 0)}`;
}

/** The banner, as lines of text (no trailing newline). */
export function banner(input: BannerInput): string {
  const t = input.transport;
  const inspector = inspectorCommands(input);
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
    'To open it in the MCP Inspector (2025-11-25, its default; or 2026-07-28):',
    `  ${inspector.legacy}`,
    `  ${inspector.modern}`,
    t.kind === 'http'
      ? 'Or from a terminal, one method per run:'
      : 'Or from a terminal, one method per run, with the configuration above saved as mcp.json:',
    `  ${inspector.cli}`,
  ];
  return lines.join('\n');
}
