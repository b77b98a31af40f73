// `mcpkit inspect` and `mcpkit audit` against a server whose handlers throw
// (test/e2e/inspect/throwing-server.mjs): the server's own error, on its stderr, is shown with a
// failure (and with --verbose), escaped; a tool the server does not list is said so; the URL may
// come after the verb.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './host/audit-harness.js';
import { stopChild } from './serve-harness.js';

const THROWING = fileURLToPath(new URL('./inspect/throwing-server.mjs', import.meta.url));
const STDIO = ['--', process.execPath, THROWING];

describe('the server’s stderr with a failure', () => {
  it('inspect read: the handler’s thrown message, under the JSON-RPC error', async () => {
    const run = await runCli(['inspect', 'read', 'note://broken', ...STDIO]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^mcpkit inspect: the server answered error -32603/);
    expect(run.stderr).toContain("the server's stderr:\n");
    expect(run.stderr).toContain('ECONNREFUSED 10.0.0.7:5432');
  });

  it('audit: after the report, as it has an error finding', async () => {
    const run = await runCli(['audit', ...STDIO]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain('request-failed');
    expect(run.stderr).toContain('ECONNREFUSED 10.0.0.7:5432');
  });

  it('with --verbose even when the command succeeds, escaped for the terminal', async () => {
    const quiet = await runCli(['inspect', 'call', 'explode', ...STDIO]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toContain('isError');
    expect(quiet.stderr).not.toContain("the server's stderr");
    const run = await runCli(['inspect', 'call', 'explode', '--verbose', ...STDIO]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("the server's stderr:\n  | throwing server: started\n");
    expect(run.stderr).toContain('the tool blew up: \\x1b[31mdisk full\\x1b[0m');
    expect(run.stderr).not.toContain('\x1b');
  });
});

describe('a tool the server does not list', () => {
  it('inspect call: an unknown tool, in the client’s words, with the tools listed', async () => {
    const run = await runCli(['inspect', 'call', 'nosuch', '{}', ...STDIO]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcpkit inspect: unknown tool "nosuch": the server lists no such tool \(tools\/list: "pic", "explode"\); the server answered error -32602/,
    );
  });

  it('audit --call: an unknown-tool finding, not a request-failed one', async () => {
    const run = await runCli(['audit', '--json', '--call', 'nosuch={}', ...STDIO]);
    const report = JSON.parse(run.stdout) as { findings: Array<{ code: string; name?: string }> };
    const about = report.findings.filter((f) => f.name === 'nosuch');
    expect(about.map((f) => f.code)).toEqual(['unknown-tool']);
  });
});

describe('over HTTP', () => {
  let child: ChildProcessWithoutNullStreams;
  let url: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [THROWING, '--http'], { stdio: 'pipe' });
    const lines = createInterface({ input: child.stdout });
    url = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => {
        if (line.startsWith('listening ')) resolve(line.slice('listening '.length));
      });
      child.once('exit', () => reject(new Error('the server exited')));
    });
  }, 30_000);
  afterAll(async () => {
    if (child) await stopChild(child);
  });

  it('takes the URL after the verb, and sizes an image by its decoded bytes', async () => {
    for (const args of [
      ['inspect', 'call', 'pic', '--resolve', 'all', url],
      ['inspect', url, 'call', 'pic', '--resolve', 'all'],
    ]) {
      const run = await runCli(args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('tool pic\n  image image/png  2 bytes (base64 4)\n');
    }
  });
});
