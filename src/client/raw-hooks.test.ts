import { describe, expect, it } from 'vitest';
import { ScriptedTransport, result, settle } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';

describe('what a host or an auditor sees besides the checked result', () => {
  it('onRawResult gets the answer as sent, before repairs; the caller gets the repaired one', async () => {
    const sent = { contents: [{ uri: 'file:///a', text: 'A' }] }; // no resultType, ttlMs, cacheScope
    const t = new ScriptedTransport().modern().onRequest('resources/read', result(sent));
    const c = await new McpClient({ transport: t, cache: false }).connect();
    const raws: unknown[] = [];
    const checked = await c.readResource('file:///a', { onRawResult: (r) => raws.push(r) });
    expect(raws).toEqual([sent]);
    expect(checked).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(c.warnings.map((w) => w.code)).toContain('REPAIRED_RESULT');
  });

  it('onRawResult still sees an answer the checks reject, and a hook that throws is only a warning', async () => {
    const bad = { resultType: 'complete', content: 'not an array' };
    const t = new ScriptedTransport().modern().onRequest('tools/call', result(bad));
    const c = await new McpClient({ transport: t, cache: false }).connect();
    let raw: unknown;
    await expect(c.callTool('x', {}, { onRawResult: (r) => (raw = r) })).rejects.toMatchObject({
      code: 'INVALID_RESULT',
    });
    expect(raw).toEqual(bad);
    t.onRequest('tools/call', result({ resultType: 'complete', content: [] }));
    const ok = await c.callTool(
      'x',
      {},
      {
        onRawResult: () => {
          throw new Error('hook broke');
        },
      },
    );
    expect(ok.content).toEqual([]);
    expect(c.warnings.at(-1)).toMatchObject({
      code: 'HANDLER_FAILED',
      message: expect.stringContaining('hook broke'),
    });
  });

  it('addNotificationListener sees every notification until removed', async () => {
    const t = new ScriptedTransport().modern();
    const c = await new McpClient({ transport: t }).connect();
    const seen: string[] = [];
    const remove = c.addNotificationListener((n) =>
      seen.push(`${n.method} ${String(n.params?.['uri'] ?? '')}`),
    );
    t.pushNotification('notifications/resources/updated', { uri: 'file:///a' });
    await settle();
    remove();
    t.pushNotification('notifications/resources/updated', { uri: 'file:///b' });
    await settle();
    expect(seen).toEqual(['notifications/resources/updated file:///a']);
  });

  it('handshakeResult is the discover answer the era was found from', async () => {
    const t = new ScriptedTransport().modern();
    const c = await new McpClient({ transport: t }).connect();
    expect(c.handshakeResult).toMatchObject({
      supportedVersions: expect.arrayContaining(['2026-07-28']),
    });
  });
});
