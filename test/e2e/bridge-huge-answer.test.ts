/** `mcpkit bridge` in front of an upstream whose answer is over the 16 MiB upstream line cap. */

import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/index.js';
import { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import { CLI } from './serve-harness.js';
import { textOf } from './bridge/harness.js';

describe('mcpkit bridge: a hostile upstream', () => {
  // Each phase is bounded (the calls by PHASE_MS, connecting by the discover timeout and
  // PHASE_MS, closing by the transport's 2 + 2 s) and together they stay under the test's
  // timeout: a hang fails an assertion naming its phase. Under load the calls took < 2 s each.
  const PHASE_MS = 15_000;

  it('an upstream answer over 16 MiB is an error for that call; the host connection stays usable', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'bridge', '--', process.execPath, 'test/e2e/bridge/huge-server.mjs'],
      stderr: 'capture',
      env: { ...process.env },
    });
    const failed = (phase: string, error: unknown): string =>
      `${phase}: ${(error as Error | undefined)?.message ?? 'no error'}; the bridge's stderr: ${transport.stderrText()}`;
    const bridged = await new McpClient({
      transport,
      era: 'auto',
      cache: false,
      requestTimeoutMs: PHASE_MS,
    })
      .connect()
      .catch((e: unknown) => expect.fail(failed('connecting to the bridge', e)));
    try {
      // The upstream stops in the middle of the line until the next request: this call's error
      // comes from the 16 MiB cap, never from the line's end.
      const error = await bridged.callTool('huge', {}, { timeoutMs: PHASE_MS }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message, failed('the "huge" call', error)).toMatch(
        /the upstream server failed: Response too large: .*exceeds maxLineBytes \(16777216 bytes\)/,
      );
      // Sent while the rest of the line (23 MiB) still streams in to be discarded: answered after it.
      const ok = await bridged.callTool('ok', {}, { timeoutMs: PHASE_MS }).then(
        (result) => ({ text: textOf(result) }),
        (e: Error) => ({ error: e }),
      );
      expect(ok, failed('the "ok" call after it', 'error' in ok ? ok.error : undefined)).toEqual({
        text: 'fine',
      });
    } finally {
      await bridged.close();
    }
  }, 60_000);
});
