/**
 * `mcpkit bridge --print-config HOST`: the entry for the host's own MCP configuration file that
 * runs this bridge (same options, the host's profile unless one is given) in front of the
 * upstream, with absolute paths so that it runs as printed.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BridgeArgs } from './bridge-args.js';

/** Where each host keeps the snippet (for the message printed to stderr). */
export const CONFIG_FILES: Record<string, string> = {
  'claude-desktop': 'claude_desktop_config.json',
  'claude-code': '.mcp.json (project) or ~/.claude.json',
  cursor: '~/.cursor/mcp.json or .cursor/mcp.json',
  vscode: '.vscode/mcp.json',
  'gemini-cli': '~/.gemini/settings.json',
  goose: '~/.config/goose/config.yaml (YAML accepts this JSON; or merge it under extensions:)',
};

/** Options whose value is a local path the host may run from elsewhere: made absolute. */
const PATH_OPTIONS = new Set(['--log', '--token-file']);

/** The bridge's own command: this Node and the CLI's absolute entry (dist/cli/bin.cjs). */
export function bridgeCommand(): { command: string; entry: string } {
  return {
    command: process.execPath,
    entry: fileURLToPath(new URL('./bin.cjs', import.meta.url)),
  };
}

function absoluteWords(
  words: readonly string[],
  cwd: string,
  isFile: (p: string) => boolean,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const eq = word.indexOf('=');
    const flag = word.startsWith('--') && eq > 0 ? word.slice(0, eq) : word;
    const absolute = (value: string): string =>
      PATH_OPTIONS.has(flag) ||
      (flag === '--profile' && (value.includes('/') || value.endsWith('.json') || isFile(value)))
        ? path.resolve(cwd, value)
        : value;
    if (eq > 0 && word.startsWith('--')) {
      out.push(`${flag}=${absolute(word.slice(eq + 1))}`);
      continue;
    }
    out.push(word);
    if ((PATH_OPTIONS.has(word) || word === '--profile') && i + 1 < words.length)
      out.push(absolute(words[++i] as string));
  }
  return out;
}

/** A name for the server entry: `--name`, else from the upstream's command or URL. */
export function entryName(args: BridgeArgs): string {
  if (args.name !== undefined) return args.name;
  const t = args.target;
  const raw =
    t.kind === 'http'
      ? new URL(t.url).hostname
      : ([...t.args].reverse().find((a) => !a.startsWith('-')) ?? t.command);
  const base = path.basename(raw).replace(/\.[cm]?[jt]s$/, '');
  const name = base
    .replace(/^@[^/]*\//, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name === '' ? 'bridged' : name.slice(0, 48);
}

/** The argv the host runs (after the command itself). */
export function bridgeArgv(
  args: BridgeArgs,
  entry: string,
  cwd: string,
  isFile: (p: string) => boolean,
): string[] {
  const words = absoluteWords(args.optionWords, cwd, isFile);
  const hasProfile = words.some((w) => w === '--profile' || w.startsWith('--profile='));
  const profile = hasProfile ? [] : ['--profile', args.printConfig as string];
  const target = args.target;
  const upstream = target.kind === 'stdio' ? ['--', target.command, ...target.args] : [];
  return [entry, 'bridge', ...profile, ...words, ...upstream];
}

/** The JSON snippet for `host`'s configuration file. */
export function hostConfig(
  host: string,
  name: string,
  command: string,
  argv: string[],
): Record<string, unknown> {
  switch (host) {
    case 'vscode':
      return { servers: { [name]: { type: 'stdio', command, args: argv } } };
    case 'claude-code':
      return { mcpServers: { [name]: { type: 'stdio', command, args: argv, env: {} } } };
    case 'goose':
      return {
        extensions: {
          [name]: {
            type: 'stdio',
            name,
            enabled: true,
            cmd: command,
            args: argv,
            env_keys: [],
            envs: {},
            timeout: 300,
          },
        },
      };
    default:
      // claude-desktop, cursor, gemini-cli and the generic profiles share this shape.
      return { mcpServers: { [name]: { command, args: argv } } };
  }
}
