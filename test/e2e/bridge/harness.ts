/** What the bridge's end-to-end tests share: the argv of a bridge or a served folder, a client. */
import { expect } from 'vitest';
import { McpClient } from '../../../src/client/index.js';
import { StdioClientTransport } from '../../../src/transports/stdio/client/index.js';
import { CLI } from '../serve-harness.js';

type Obj = Record<string, unknown>;

/** `node CLI bridge --profile PROFILE EXTRA… -- UPSTREAM…`. */
export const bridgeArgv = (profile: string, upstream: string[], extra: string[] = []): string[] => [
  process.execPath,
  CLI,
  'bridge',
  '--profile',
  profile,
  ...extra,
  '--',
  ...upstream,
];

/** `node CLI serve DIR --stdio --quiet --no-watch`. */
export const serveArgv = (dir: string): string[] => [
  process.execPath,
  CLI,
  'serve',
  dir,
  '--stdio',
  '--quiet',
  '--no-watch',
];

export interface StdioClientChoice {
  era?: 'legacy' | 'modern' | 'auto';
  env?: Record<string, string>;
  onNotification?: (n: { method: string }) => void;
}

/** A connected client of the process `argv` starts (its stderr captured). */
export function stdioClient(argv: string[], options: StdioClientChoice = {}): Promise<McpClient> {
  const [command, ...args] = argv as [string, ...string[]];
  return new McpClient({
    transport: new StdioClientTransport({
      command,
      args,
      stderr: 'capture',
      ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    }),
    era: options.era ?? 'auto',
    cache: false,
    ...(options.onNotification ? { onNotification: options.onNotification } : {}),
  }).connect();
}

/** The one text block of a result. */
export function textOf(result: Obj): string {
  const content = result['content'] as Array<{ type: string; text?: string }>;
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe('text');
  return content[0]?.text as string;
}
