/**
 * `mcpkit bridge` end to end: the upstream's list and resource changes reach the host, and the
 * bridge serves over HTTP downstream (loopback by default; other addresses need auth or
 * --insecure-no-auth).
 */

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { HttpClientTransport } from '../../src/transports/http/client/index.js';
import { runCli } from './host/audit-harness.js';
import { CLI } from './serve-harness.js';
import { stdioClient, type StdioClientChoice } from './bridge/harness.js';

const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const FIXTURE = ['--import', 'tsx', 'test/e2e/bridge/fixture-server.ts'];
type Obj = Record<string, unknown>;

const client = (command: string, args: string[], options: StdioClientChoice = {}) =>
  stdioClient([command, ...args], { env: {}, ...options });

describe('mcpkit bridge: changes and HTTP downstream', () => {
  it('a 2025-11-25 host subscribed to a resource hears of its upstream updates and list changes', async () => {
    const notes: Array<{ method: string; params?: Obj }> = [];
    const bridged = await client(
      process.execPath,
      [CLI, 'bridge', '--', process.execPath, ...FIXTURE],
      {
        era: 'legacy',
        onNotification: (n) => notes.push(n),
      },
    );
    try {
      await bridged.request('resources/subscribe', { uri: 'test://hello.txt' });
      // The upstream subscription is opened as the host's begins: retry until it is in place.
      for (
        let i = 0;
        i < 50 && !notes.some((n) => n.method === 'notifications/resources/updated');
        i++
      ) {
        await bridged.callTool('touch', {});
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(notes).toContainEqual(
        expect.objectContaining({
          method: 'notifications/resources/updated',
          params: expect.objectContaining({ uri: 'test://hello.txt' }),
        }),
      );
      await bridged.callTool('add-tool', {});
      for (
        let i = 0;
        i < 50 && !notes.some((n) => n.method === 'notifications/tools/list_changed');
        i++
      )
        await new Promise((r) => setTimeout(r, 100));
      expect((await bridged.listTools()).map((t) => t.name)).toContain('added');
      expect(notes.map((n) => n.method)).toContain('notifications/tools/list_changed');
    } finally {
      await bridged.close();
    }
  });

  it('a 2026-07-28 host listening through the bridge hears of upstream resource updates', async () => {
    const bridged = await client(
      process.execPath,
      [CLI, 'bridge', '--', process.execPath, ...FIXTURE],
      { era: 'modern' },
    );
    try {
      const stream = await bridged.listen({
        resourceSubscriptions: ['test://hello.txt'],
        toolsListChanged: true,
      });
      const heard: string[] = [];
      const reading = (async () => {
        for await (const note of stream) {
          heard.push(`${note.method} ${String(note.params['uri'] ?? '')}`);
          if (note.method === 'notifications/resources/updated') return;
        }
      })();
      for (let i = 0; i < 50 && heard.length === 0; i++) {
        await bridged.callTool('touch', {});
        await new Promise((r) => setTimeout(r, 100));
      }
      await reading;
      expect(heard).toContain('notifications/resources/updated test://hello.txt');
      await stream.close();
    } finally {
      await bridged.close();
    }
  });

  it('--http serves the host over Streamable HTTP; a non-loopback address without auth is refused', async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'bridge', '--http', '127.0.0.1:0', '--', process.execPath, EVERYTHING],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          const line = out.split('\n')[0];
          if (out.includes('\n') && line) resolve(line.trim());
        });
        child.once('exit', (code) => reject(new Error(`exited ${String(code)}`)));
      });
      const http = await new McpClient({
        transport: new HttpClientTransport({ url }),
        cache: false,
      }).connect();
      try {
        expect((await http.listTools()).map((t) => t.name)).toContain('get-resource-links');
      } finally {
        await http.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
    const refused = await runCli([
      'bridge',
      '--http',
      '0.0.0.0:0',
      '--',
      process.execPath,
      EVERYTHING,
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--insecure-no-auth');
  });
});
