import { describe, expect, it, vi } from 'vitest';
import { McpClient } from '../client/index.js';
import { createServer, type McpServer } from '../server/index.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { createBridge, type CreateBridgeOptions } from './create-bridge.js';

vi.mock('./rewrite/index.js', () => ({
  // A rewriter that records one decision per tool result and leaves prompts as they are.
  rewriteToolResult: (result: Record<string, unknown>, ctx: { readToolName: string }) =>
    Promise.resolve({
      ...result,
      _meta: {
        'dev.mcpkit/decisions': [
          { uri: 'upstream://own', action: 'embedded' },
          { uri: 'test://x', action: 'kept', readTool: ctx.readToolName, by: 'bridge' },
        ],
      },
    }),
  rewritePromptResult: (result: unknown) => Promise.resolve(result),
}));

function upstream(): McpServer {
  const server = createServer({ name: 'up', version: '2.0.0' });
  server.tool(
    'echo',
    { input: { type: 'object', properties: { text: { type: 'string' } } } },
    ({ text }) => String(text),
  );
  server.tool('confirm', {}, async (_args, ctx) => {
    const { answer } = await ctx.ask({
      answer: {
        method: 'elicitation/create',
        params: { message: 'sure?', requestedSchema: { type: 'object', properties: {} } },
      },
    });
    return `host said ${String(answer['action'])}`;
  });
  return server;
}

async function setup(
  options: Partial<CreateBridgeOptions>,
  era: 'legacy' | 'modern',
  handlers = {},
) {
  const bridge = await createBridge({
    transport: new MemoryClientTransport(upstream()),
    client: { era: 'modern' },
    profile: { name: 'passthrough', readsResources: true },
    ...options,
  });
  const host = await new McpClient({
    transport: new MemoryClientTransport(bridge.server),
    era,
    cache: false,
    handlers,
  }).connect();
  return { bridge, host };
}

describe('BridgeServer', () => {
  it("logs each decision the rewriter records, with the method and the tool's name", async () => {
    const decisions: Array<Record<string, unknown>> = [];
    const { bridge, host } = await setup({ onDecision: (d) => decisions.push(d) }, 'modern');
    const result = await host.callTool('echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(decisions).toEqual([
      expect.objectContaining({
        method: 'tools/call',
        name: 'echo',
        uri: 'test://x',
        readTool: 'read_resource',
      }),
    ]);
    await host.close();
    await bridge.close();
  });

  it('presents the upstream identity to the host', async () => {
    const { bridge, host } = await setup({}, 'legacy');
    expect(host.serverInfo).toMatchObject({ name: 'up', version: '2.0.0' });
    await host.close();
    await bridge.close();
  });

  it("with forwardInput, a 2026-07-28 upstream's input request reaches a 2025-11-25 host", async () => {
    const elicitation = vi.fn(() => ({ action: 'accept' as const, content: {} }));
    const { bridge, host } = await setup({ forwardInput: true }, 'legacy', { elicitation });
    const result = await host.callTool('confirm', {});
    expect(result.content).toEqual([{ type: 'text', text: 'host said accept' }]);
    expect(elicitation).toHaveBeenCalledOnce();
    await host.close();
    await bridge.close();
  });

  it('without forwardInput, the upstream sees no input capability and the call fails clearly', async () => {
    const { bridge, host } = await setup({}, 'legacy', {
      elicitation: () => ({ action: 'accept' }),
    });
    const error = await host.callTool('confirm', {}).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/elicitation/);
    await host.close();
    await bridge.close();
  });
});
