// `mcpkit inspect` / `audit` against a protected server (a scripted authorization server and
// an mcpkit server behind its bearer check, on 127.0.0.1): no sign-in option ends the run at
// once naming --auth and --token-env; --token-env / --token-file send a ready token; --auth
// signs in through the loopback redirect listener (the "browser" here is a fetch of the URL
// printed on stderr) and keeps the tokens 0600 under the config directory, never printed.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eServer } from '../../src/testing/e2e-server.js';
import { startFakeOAuth, type FakeOAuth } from '../../src/testing/fake-oauth.js';
import { toNodeHandler } from '../../src/transports/node.js';
import { CLI } from './serve-harness.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code as number | null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

/** Runs `inspect --auth`, approving the sign-in by fetching the printed URL. */
function signIn(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'inspect', ...args, '--auth'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      const url = /open (http\S+)/.exec(String(d))?.[1];
      if (url) void fetch(url).then((r) => r.text());
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('inspect and audit against a protected server', () => {
  let fake: FakeOAuth;
  let home: string;
  beforeAll(async () => {
    fake = await startFakeOAuth({ mcp: toNodeHandler(createE2eServer()) });
    home = mkdtempSync(join(tmpdir(), 'mcpkit-auth-'));
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('without a sign-in option: exit 1 at once, naming --auth and --token-env', async () => {
    for (const command of ['inspect', 'audit']) {
      const run = await cli([command, fake.url], { XDG_CONFIG_HOME: home });
      expect(run.code, command).toBe(1);
      expect(run.stdout + run.stderr).toMatch(/requires authorization.*--auth.*--token-env/);
    }
    expect(fake.seen.authorizations).toHaveLength(0);
  });

  it('--token-env and --token-file send the token; a refused one says which option gave it', async () => {
    const refused = await cli(['inspect', fake.url, '--token-env', 'MY_TOKEN'], {
      MY_TOKEN: 'not-issued-secret',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused the token of --token-env MY_TOKEN');
    expect(refused.stderr).not.toContain('not-issued-secret');
    const file = join(home, 'token');
    writeFileSync(file, 'also-wrong\n');
    const fromFile = await cli(['inspect', fake.url, '--token-file', file]);
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toContain('--token-file');
  });

  it('--auth signs in with PKCE, keeps the tokens 0600, and reuses them next time', async () => {
    const env = { XDG_CONFIG_HOME: home };
    const first = await signIn([fake.url, 'call', 'echo', '{"text":"hi"}'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('hi');
    expect(first.stderr).toContain('Sign in to continue: open http://127.0.0.1:');
    const file = join(home, 'mcpkit', 'auth.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const token = stored[fake.url].tokens.access_token as string;
    expect(first.stdout + first.stderr).not.toContain(token);
    // The token kept: no second authorization.
    const again = await cli(['inspect', fake.url, '--auth', 'call', 'echo', '{"text":"yo"}'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(fake.seen.authorizations).toHaveLength(1);
    const run = await cli(['inspect', fake.url, '--token-env', 'T', '--json'], { T: token });
    expect(run.code, run.stderr).toBe(0);
  });
});
