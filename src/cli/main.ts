#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { createNotesServer } from '../examples/notes-server.js';
import { serveStdio } from '../transports/stdio/index.js';
import { serveHttp } from '../transports/node.js';

const USAGE = `mcpkit — a resource-first toolkit for the Model Context Protocol

Usage:
  mcpkit example [--http [host:]port | --stdio]   run the bundled example server
                                                  (default: HTTP on 127.0.0.1:3333)
  mcpkit --help | --version

Options:
  --http [host:]port   Streamable HTTP (2026-07-28 and 2025-11-25 on one endpoint, /mcp)
  --stdio              newline-delimited JSON-RPC on stdin/stdout; logs go to stderr
`;

function fail(message: string): never {
  process.stderr.write(`mcpkit: ${message}\nRun 'mcpkit --help' for usage.\n`);
  process.exit(2);
}

function parseHostPort(value: string | undefined): { host: string; port: number } {
  if (value === undefined || value.startsWith('--')) return { host: '127.0.0.1', port: 3333 };
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value);
  const port = Number(m?.[2]);
  if (!m || port > 65535) fail(`--http expects [host:]port, got ${JSON.stringify(value)}`);
  const host = m[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1';
  return { host, port };
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === '--version' || command === '-v') {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return;
  }
  if (command !== 'example') fail(`unknown command ${JSON.stringify(command)}`);
  const stdio = rest.includes('--stdio');
  const httpAt = rest.indexOf('--http');
  for (const arg of rest) {
    if (arg.startsWith('--') && arg !== '--stdio' && arg !== '--http') fail(`unknown option ${arg}`);
  }
  if (stdio && httpAt >= 0) fail('choose one of --stdio and --http');
  const server = createNotesServer();
  if (stdio) {
    await serveStdio(server).closed;
    process.exit(0);
  }
  const { host, port } = parseHostPort(httpAt >= 0 ? rest[httpAt + 1] : undefined);
  const running = await serveHttp(server, { host, port }).catch((error: Error) => fail(`cannot listen on ${host}:${port}: ${error.message}`));
  process.stderr.write(`mcpkit example server listening on ${running.url}\n`);
  process.stdout.write(`${running.url}\n`);
  const stop = (): void => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
