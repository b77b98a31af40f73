/**
 * `mcpkit bridge --print-config HOST` for every built-in host: the printed entry, spawned the way
 * a host spawns it (command and args as printed, another working folder), serves the upstream's
 * tools through the host's profile.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { runCli } from './host/audit-harness.js';

const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
type Obj = Record<string, unknown>;

describe('mcpkit bridge --print-config: every built-in host', () => {
  it('for every built-in host the printed entry runs as printed, from another folder', async () => {
    const hosts = [
      'claude-code',
      'claude-desktop',
      'cursor',
      'vscode',
      'gemini-cli',
      'goose',
      'generic-text-only',
      'passthrough',
    ];
    for (const host of hosts) {
      const run = await runCli([
        'bridge',
        '--print-config',
        host,
        '--name',
        'x',
        '--',
        process.execPath,
        join(process.cwd(), EVERYTHING),
      ]);
      expect(run.code, `${host}: ${run.stderr}`).toBe(0);
      const json = JSON.parse(run.stdout) as Obj;
      const table = (json['mcpServers'] ?? json['servers'] ?? json['extensions']) as Obj;
      const entry = table['x'] as Obj;
      const command = (entry['command'] ?? entry['cmd']) as string;
      const args = entry['args'] as string[];
      // Spawned the way a host does: the command and args as printed, its own cwd.
      const printed = await new McpClient({
        transport: new StdioClientTransport({
          command,
          args,
          cwd: tmpdir(),
          stderr: 'capture',
        }),
        cache: false,
      }).connect();
      try {
        const names = (await printed.listTools()).map((t) => t.name);
        expect(names, host).toContain('get-resource-links');
        const profile = (await runCli(['bridge', '--explain-profile', host])).stdout;
        const readsResources = (JSON.parse(profile) as Obj)['readsResources'];
        expect(names.includes('read_resource'), host).toBe(readsResources === false);
      } finally {
        await printed.close();
      }
    }
  });
});
