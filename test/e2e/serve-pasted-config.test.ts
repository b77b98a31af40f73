/**
 * The stdio configuration `mcpkit serve --http` prints to paste into a host (the built CLI): a
 * host starts it from a working directory of its own, so every path in it is absolute. Here
 * `--index-dir` is given relative to the folder serve was started in; the pasted command, run
 * from elsewhere, saves its index there, not in a folder of the same name under its own cwd.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, EXAMPLE_DIR, stopChild } from './serve-harness.js';

let base = '';
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-pasted-config-'));
  await mkdir(join(base, 'here'));
  await mkdir(join(base, 'elsewhere'));
});
afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

/** The `mcpServers` entry the banner of `serve --http` prints, from the given cwd. */
async function pastedConfig(
  cwd: string,
  args: string[],
): Promise<{ command: string; args: string[] }> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', EXAMPLE_DIR, '--http', '127.0.0.1:0', ...args],
    {
      cwd,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stdout}`)));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('MCP Inspector')) resolve();
      });
    });
  } finally {
    await stopChild(child);
  }
  const json = /paste into its MCP configuration:\n(\{[\s\S]*?\n\})\n/.exec(stdout)?.[1];
  type Entry = { command: string; args: string[] };
  const servers = (JSON.parse(json ?? 'null') as { mcpServers: Record<string, Entry> }).mcpServers;
  const [entry] = Object.values(servers);
  if (!entry) throw new Error(`no configuration in the banner: ${stdout}`);
  return entry;
}

describe('the stdio configuration serve prints', () => {
  it('names a relative --index-dir by its absolute path, so the host finds the same index', async () => {
    const config = await pastedConfig(join(base, 'here'), ['--index-dir', 'idx']);
    const at = config.args.indexOf('--index-dir');
    expect(config.args[at + 1]).toBe(join(base, 'here', 'idx'));
    // The host's start: another cwd; stdin ends at once, and the index is saved at exit.
    const host = spawn(config.command, config.args, {
      cwd: join(base, 'elsewhere'),
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    host.stdin.end();
    const code = await new Promise((resolve) => host.once('exit', resolve));
    expect(code).toBe(0);
    expect(readdirSync(join(base, 'here', 'idx')).length).toBeGreaterThan(0);
    expect(existsSync(join(base, 'elsewhere', 'idx'))).toBe(false);
  });
});
