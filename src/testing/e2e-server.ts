// Test support only: not part of the mcpkit package (excluded from the build and not published).
/**
 * The fixture server the end-to-end tests (test/e2e) and src unit tests drive: an echo tool, a
 * slow tool that honours cancellation, a tool that reports progress, a static resource, a resource
 * template and a prompt.
 *
 * In-process: `createE2eServer()`. As a process (the README's pattern, no process.exit):
 *   node --import tsx src/testing/e2e-server.ts --stdio [--max-line-bytes N]
 * Logs go to stderr only; a slow call that gets cancelled logs `e2e: slow <tag> aborted`, a late
 * call logs `e2e: late <tag> aborted=<bool>`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer, type McpServer } from '../server/index.js';
import { serveStdio } from '../transports/stdio/server/index.js';

export interface E2eHooks {
  /** Called when a `slow` call saw its signal abort (client cancel or stream closed). */
  onAbort?: (tag: string) => void;
  /** Called when a `late` call looks at its signal, after `ms`, with what it saw. */
  onLate?: (tag: string, aborted: boolean) => void;
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal.aborted) return fail(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      fail(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const SLOW_DEFAULT_MS = 300;

export function createE2eServer(hooks: E2eHooks = {}): McpServer {
  const server = createServer({ name: 'mcpkit-e2e', version: '1.0.0' });
  server.tool(
    'echo',
    {
      description: 'Returns its text',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    ({ text }: { text: string }) => text,
  );
  server.tool(
    'slow',
    {
      description: `Answers "slow <tag> done" after ms (default ${SLOW_DEFAULT_MS}) unless cancelled`,
      input: {
        type: 'object',
        properties: {
          tag: { type: 'string' },
          ms: { type: 'integer', minimum: 0, maximum: 10_000 },
        },
        required: ['tag'],
      },
    },
    async ({ tag, ms }: { tag: string; ms?: number }, ctx) => {
      try {
        await sleep(ms ?? SLOW_DEFAULT_MS, ctx.signal);
      } catch (error) {
        hooks.onAbort?.(tag);
        throw error;
      }
      return `slow ${tag} done`;
    },
  );
  server.tool(
    'late',
    {
      description:
        'Works for ms without looking at its signal, then reports whether it was cancelled meanwhile',
      input: {
        type: 'object',
        properties: {
          tag: { type: 'string' },
          ms: { type: 'integer', minimum: 0, maximum: 10_000 },
        },
        required: ['tag'],
      },
    },
    async ({ tag, ms }: { tag: string; ms?: number }, ctx) => {
      await new Promise((r) => setTimeout(r, ms ?? SLOW_DEFAULT_MS));
      hooks.onLate?.(tag, ctx.signal.aborted);
      return `late ${tag} done`;
    },
  );
  server.tool(
    'progress',
    {
      description: 'Reports `steps` progress notifications, then answers',
      input: {
        type: 'object',
        properties: { steps: { type: 'integer', minimum: 1, maximum: 10 } },
      },
    },
    async ({ steps = 3 }: { steps?: number }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        ctx.progress(i, steps, `step ${i}`);
        await sleep(5, ctx.signal);
      }
      return `progress done after ${steps} steps`;
    },
  );
  server.resource('mem://hello', { name: 'hello', mimeType: 'text/plain' }, () => 'Hello, e2e');
  server.resource(
    'mem://files/{name}',
    { name: 'file', mimeType: 'text/plain' },
    (_uri, { name }) => (name === 'a.txt' ? 'file a' : undefined),
  );
  server.prompt(
    'greet',
    { arguments: [{ name: 'who', required: true }] },
    ({ who }) => `Say hello to ${who}.`,
  );
  return server;
}

function fail(message: string): never {
  process.stderr.write(`e2e-server: ${message}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  if (!argv.includes('--stdio')) fail('usage: e2e-server.ts --stdio [--max-line-bytes N]');
  const at = argv.indexOf('--max-line-bytes');
  let maxLineBytes: number | undefined;
  if (at >= 0) {
    maxLineBytes = Number(argv[at + 1]);
    if (!Number.isInteger(maxLineBytes) || maxLineBytes <= 0)
      fail(`--max-line-bytes expects a positive integer`);
  }
  const server = createE2eServer({
    onAbort: (tag) => process.stderr.write(`e2e: slow ${tag} aborted\n`),
    onLate: (tag, aborted) => process.stderr.write(`e2e: late ${tag} aborted=${aborted}\n`),
  });
  const connection = serveStdio(server, maxLineBytes === undefined ? {} : { maxLineBytes });
  process.stderr.write('e2e: serving on stdio\n');
  await connection.closed;
  process.stderr.write('e2e: stdin closed, exiting\n');
  // No process.exit: the process must end by itself once stdin is closed (README pattern).
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(resolve(entry)).href) {
  main(process.argv.slice(2)).catch((error: unknown) => fail(String(error)));
}
