import { describe, expect, it } from 'vitest';
import { banner, inspectorCommands, shellQuote, stdioConfig } from './banner.js';

const base = {
  dir: '/srv/docs',
  files: 9,
  bytes: 1_300_000,
  blockBudgetBytes: 1024 * 1024,
  resultBudgetBytes: 4 * 1024 * 1024,
  stdioCommand: {
    command: '/usr/bin/node',
    args: ['/opt/mcpkit/dist/cli/main.js', 'serve', '/srv/my docs', '--stdio', '-q'],
  },
  serverName: 'docs',
};

describe('banner', () => {
  it('says where it listens, gives a stdio configuration and the Inspector command (HTTP)', () => {
    const text = banner(
      {
        ...base,
        transport: {
          kind: 'http',
          url: 'http://127.0.0.1:3333/mcp',
          inboundBytes: 4 * 1024 * 1024,
          outboundBytes: 32 * 1024 * 1024,
          capBytes: 32 * 1024 * 1024 - 1024,
          legacy: true,
        },
      },
      '22.19.0',
    );
    expect(text).toContain('mcpkit serve: /srv/docs (9 files, 1.2 MiB)');
    expect(text).toContain(
      'Listening on http://127.0.0.1:3333/mcp (Streamable HTTP: 2026-07-28, and 2025-11-25 sessions)',
    );
    expect(text).toContain('embed up to 1.0 MiB per file and 4.0 MiB per result');
    expect(text).toContain(
      'caps       out: 32.0 MiB per message, what the client can take (--max-response-bytes); in: 4.0 MiB per request body (--max-body-bytes)',
    );
    expect(text).toContain('file:///{+path}{?offset,length,version}');
    const target = '--transport http --server-url http://127.0.0.1:3333/mcp';
    const lines = text.split('\n');
    // Both eras for the UI, then the --cli form in the modern era.
    expect(lines).toContain(`  npx @modelcontextprotocol/inspector ${target}`);
    expect(lines).toContain(
      `  npx @modelcontextprotocol/inspector ${target} --protocol-era modern`,
    );
    expect(lines).toContain(
      `  npx @modelcontextprotocol/inspector --cli ${target} --protocol-era modern --method tools/list`,
    );
    const json = text.slice(text.indexOf('{\n'), text.lastIndexOf('}') + 1);
    expect(JSON.parse(json)).toEqual({
      mcpServers: { docs: { command: '/usr/bin/node', args: base.stdioCommand.args } },
    });
  });

  it('points the Inspector at the stdio command, quoted for a shell', () => {
    const stdio = {
      kind: 'stdio' as const,
      inboundBytes: 32 * 1024 * 1024,
      outboundBytes: 10 * 1024 * 1024,
      capBytes: 10 * 1024 * 1024 - 1025,
    };
    const command = "/usr/bin/node /opt/mcpkit/dist/cli/main.js serve '/srv/my docs' --stdio -q";
    expect(inspectorCommands({ ...base, transport: stdio }, 'v24.1.0')).toEqual({
      legacy: `npx @modelcontextprotocol/inspector -- ${command}`,
      modern: `npx @modelcontextprotocol/inspector --protocol-era modern -- ${command}`,
      // Inspector 2.x's --cli passes the server's command line after `--` as it is.
      cli: `npx @modelcontextprotocol/inspector --cli --protocol-era modern --method tools/list -- ${command}`,
    });
    const text = banner({ ...base, transport: stdio }, '22.19.0');
    expect(text).not.toContain('mcp.json');
    const json = text.slice(text.indexOf('{\n'), text.lastIndexOf('}') + 1);
    expect(JSON.parse(json).mcpServers.docs.args).toContain('-q');
    expect(text).toContain('Serving over stdio');
    expect(text).toContain(
      'caps       out: 10.0 MiB per message, what the client can take (--max-response-bytes); in: 32.0 MiB per line (--max-line-bytes)',
    );
  });

  describe('the Inspector commands per Node version', () => {
    const http = {
      kind: 'http' as const,
      url: 'http://127.0.0.1:3333/mcp',
      inboundBytes: 1,
      outboundBytes: 1,
      capBytes: 1,
      legacy: true,
    };
    const stdio = { kind: 'stdio' as const, inboundBytes: 1, outboundBytes: 1, capBytes: 1 };

    it.each(['22.19.0', '22.20.1', '24.0.0', 'v23.0.0'])(
      'Node %s: Inspector 2.x, both eras',
      (v) => {
        const c = inspectorCommands({ ...base, transport: http }, v);
        expect(c.modern).toMatch(
          /^npx @modelcontextprotocol\/inspector --transport http .* --protocol-era modern$/,
        );
        expect(c.note).toBeUndefined();
      },
    );

    it.each(['20.19.4', '22.18.0', '21.7.3', 'v20.0.0'])(
      'Node %s: 0.15.0 pinned (the last that installs there), and the banner says why',
      (v) => {
        const onHttp = inspectorCommands({ ...base, transport: http }, v);
        expect(onHttp).toEqual({
          legacy:
            'npx @modelcontextprotocol/inspector@0.15.0   # then in its page: Transport Type "Streamable HTTP", URL http://127.0.0.1:3333/mcp',
          cli: 'npx @modelcontextprotocol/inspector@0.15.0 --cli http://127.0.0.1:3333/mcp --transport http --method tools/list',
          note: `Inspector 2.x (2026-07-28) needs Node >= 22.19.0, this is Node ${v.replace('v', '')}: 0.15.0, the last for Node 20, speaks the 2025 revisions only`,
        });
        const onStdio = inspectorCommands({ ...base, transport: stdio }, v);
        expect(onStdio.legacy).toBe(
          "npx @modelcontextprotocol/inspector@0.15.0 -- /usr/bin/node /opt/mcpkit/dist/cli/main.js serve '/srv/my docs' --stdio -q",
        );
        expect(onStdio.cli).toBe(
          'npx @modelcontextprotocol/inspector@0.15.0 --cli --config mcp.json --server docs --method tools/list',
        );
        const text = banner({ ...base, transport: stdio }, v);
        expect(text).toContain(`To open it in the MCP Inspector (${onStdio.note}):`);
        expect(text).toContain('with the configuration above saved as mcp.json');
        expect(text).not.toContain('--protocol-era');
        expect(text).not.toMatch(/inspector(?!@0\.15\.0)/);
      },
    );
  });

  it('quotes only what needs it', () => {
    expect(shellQuote('/a/b-c_d.js')).toBe('/a/b-c_d.js');
    expect(shellQuote("it's here")).toBe("'it'\\''s here'");
    expect(JSON.parse(stdioConfig('x', 'node', ['a']))).toEqual({
      mcpServers: { x: { command: 'node', args: ['a'] } },
    });
  });
});
