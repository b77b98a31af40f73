/** The upstream's odd messages reach the bridge's stderr, escaped and rate-limited. */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { CLI } from './serve-harness.js';

describe('mcpkit bridge: the upstream client warnings', () => {
  it('a line that is not JSON is named on stderr (controls escaped), at most one line a second', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'bridge', '--', process.execPath, 'test/e2e/bridge/noisy-upstream.mjs'],
      stderr: 'capture',
    });
    const client = await new McpClient({ transport, era: 'modern', cache: false }).connect();
    try {
      const result = await client.callTool('noisy', {});
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      let stderr = '';
      for (let i = 0; i < 50 && !stderr.includes('not a JSON line'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        stderr = transport.stderrText();
      }
      const lines = stderr.split('\n').filter((l) => l.includes('the upstream server: '));
      expect(lines[0]).toMatch(/^mcpkit bridge: the upstream server: .*not a JSON line/);
      expect(stderr).not.toContain('\u001b[31m');
      // Five bad lines written at once: not five lines on stderr (the rest are counted).
      expect(lines.length).toBeLessThan(5);
    } finally {
      await client.close();
    }
  });
});
