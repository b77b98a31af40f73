/**
 * `mcpkit bridge` end to end through the built CLI: --explain-profile, an unknown profile,
 * --print-config whose output runs as printed, the own read_resource/list_resources tools
 * (exact bytes and ranges, also through the upstream's part reads; renamed on a clash), a hung
 * upstream, and an upstream that dies and is restarted (changes and HTTP downstream:
 * bridge-changes-http.test.ts; an answer over the line cap: bridge-huge-answer.test.ts).
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './host/audit-harness.js';
import { CLI } from './serve-harness.js';
import { serveArgv, stdioClient, textOf, type StdioClientChoice } from './bridge/harness.js';

const EVERYTHING = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const FIXTURE = ['--import', 'tsx', 'test/e2e/bridge/fixture-server.ts'];
type Obj = Record<string, unknown>;

const client = (command: string, args: string[], options: StdioClientChoice = {}) =>
  stdioClient([command, ...args], { env: {}, ...options });

/** A profile file: passthrough, except that the host reads no resources (so the own tools are added). */
let NO_READ = '';
let profileDir = '';
beforeAll(async () => {
  profileDir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-profile-'));
  NO_READ = join(profileDir, 'no-read.json');
  await writeFile(NO_READ, JSON.stringify({ extends: 'passthrough', readsResources: false }));
});
afterAll(async () => {
  await rm(profileDir, { recursive: true, force: true });
});

describe('mcpkit bridge: profiles on the command line', () => {
  it('--explain-profile prints the profile as JSON and exits 0', async () => {
    const run = await runCli(['bridge', '--explain-profile', 'passthrough']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'passthrough', readsResources: true });
  });

  it('an unknown profile exits non-zero naming the known ones', async () => {
    const run = await runCli([
      'bridge',
      '--profile',
      'no-such-host',
      '--',
      process.execPath,
      EVERYTHING,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/unknown profile "no-such-host".*passthrough/);
    const explain = await runCli(['bridge', '--explain-profile', 'no-such-host']);
    expect(explain.code).not.toBe(0);
    expect(explain.stderr).toContain('passthrough');
  });

  it('usage mistakes exit 2 with a message naming the option', async () => {
    const none = await runCli(['bridge']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--url');
    const bad = await runCli(['bridge', '--max-link-bytes', 'lots', '--', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-link-bytes');
  });

  it('--help documents the options', async () => {
    const run = await runCli(['bridge', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--profile',
      '--explain-profile',
      '--print-config',
      '--max-link-bytes',
      '--max-result-chars',
      '--log',
      '--url',
      '--http',
      'read_resource',
    ])
      expect(run.stdout).toContain(flag);
  });
});

describe('mcpkit bridge --print-config', () => {
  it('prints each host shape with absolute paths and the upstream argv verbatim', async () => {
    const shapes: Record<string, (j: Obj) => Obj> = {
      'claude-desktop': (j) => (j['mcpServers'] as Obj)['x'] as Obj,
      cursor: (j) => (j['mcpServers'] as Obj)['x'] as Obj,
      'gemini-cli': (j) => (j['mcpServers'] as Obj)['x'] as Obj,
      'claude-code': (j) => (j['mcpServers'] as Obj)['x'] as Obj,
      vscode: (j) => (j['servers'] as Obj)['x'] as Obj,
      goose: (j) => (j['extensions'] as Obj)['x'] as Obj,
    };
    for (const [host, entryOf] of Object.entries(shapes)) {
      const run = await runCli([
        'bridge',
        '--print-config',
        host,
        '--name',
        'x',
        '--max-link-bytes',
        '1000',
        '--',
        'node',
        'server.js',
        '--flag',
        'a b',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const entry = entryOf(JSON.parse(run.stdout) as Obj);
      const command = (entry['command'] ?? entry['cmd']) as string;
      const args = entry['args'] as string[];
      expect(command).toBe(process.execPath);
      expect(isAbsolute(args[0] as string)).toBe(true);
      expect(args[0]).toMatch(/dist[\\/]cli[\\/]bin\.cjs$/);
      expect(args.slice(1)).toEqual([
        'bridge',
        '--profile',
        host,
        '--max-link-bytes',
        '1000',
        '--',
        'node',
        'server.js',
        '--flag',
        'a b',
      ]);
      if (host === 'vscode' || host === 'claude-code' || host === 'goose')
        expect(entry['type']).toBe('stdio');
    }
  });

  it('an unknown host exits 2 naming the known ones', async () => {
    const run = await runCli(['bridge', '--print-config', 'notepad', '--', 'node', 'x.js']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('claude-desktop');
  });

  it('the printed command runs as printed: it lists the upstream tools', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-config-'));
    try {
      const profile = join(dir, 'log.jsonl');
      const run = await runCli([
        'bridge',
        '--print-config',
        'claude-desktop',
        '--profile',
        'passthrough',
        '--log',
        profile,
        '--',
        process.execPath,
        join(process.cwd(), EVERYTHING),
      ]);
      expect(run.code, run.stderr).toBe(0);
      const servers = (
        JSON.parse(run.stdout) as {
          mcpServers: Record<string, { command: string; args: string[] }>;
        }
      ).mcpServers;
      const [entry] = Object.values(servers);
      const printed = await client(entry?.command as string, entry?.args as string[]);
      try {
        const names = (await printed.listTools()).map((t) => t.name);
        expect(names).toContain('get-resource-links');
      } finally {
        await printed.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('mcpkit bridge: read_resource and list_resources for hosts that read no resources', () => {
  let dir: string;
  const big = Buffer.alloc(300_000);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-read-'));
    for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 8)) & 0xff;
    await writeFile(join(dir, 'big.bin'), big);
    await writeFile(join(dir, 'big.txt'), 'ünïcode line\n'.repeat(20_000));
    await writeFile(join(dir, 'small.md'), '# Small\n\nExact text, “quotes” and é.\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const upstream = (): string[] => [...serveArgv(dir), '--max-response-bytes', '64k'];

  it('reads exact text, exact blob bytes and byte ranges (through the upstream parts)', async () => {
    const bridged = await client(process.execPath, [
      CLI,
      'bridge',
      '--profile',
      NO_READ,
      '--',
      ...upstream(),
    ]);
    try {
      const names = (await bridged.listTools()).map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['read_resource', 'list_resources', 'read', 'search']),
      );
      const small = await bridged.callTool('read_resource', { uri: 'file:///small.md' });
      expect(textOf(small)).toBe(await readFile(join(dir, 'small.md'), 'utf8'));
      // big.bin is over what one answer carries: read in parts upstream, the range is exact.
      const range = await bridged.callTool('read_resource', {
        uri: 'file:///big.bin',
        offset: 60_000,
        length: 100_000,
      });
      expect(Buffer.from(textOf(range), 'base64').equals(big.subarray(60_000, 160_000))).toBe(true);
      const tail = await bridged.callTool('read_resource', {
        uri: 'file:///big.bin',
        offset: 299_990,
      });
      expect(Buffer.from(textOf(tail), 'base64').equals(big.subarray(299_990))).toBe(true);
      const whole = await bridged.callTool('read_resource', { uri: 'file:///big.txt' });
      expect(textOf(whole)).toBe(await readFile(join(dir, 'big.txt'), 'utf8'));
      const smallRange = await bridged.callTool('read_resource', {
        uri: 'file:///small.md',
        offset: 2,
        length: 5,
      });
      expect(Buffer.from(textOf(smallRange), 'base64').toString('utf8')).toBe('Small');
      const listed = await bridged.callTool('list_resources', { query: 'BIG' });
      const uris = (
        JSON.parse(textOf(listed)) as { resources: Array<{ uri: string }> }
      ).resources.map((r) => r.uri);
      expect(uris.sort()).toEqual(['file:///big.bin', 'file:///big.txt']);
      const bad = await bridged.callTool('read_resource', { uri: 'file:///small.md', offset: -1 });
      expect(bad.isError).toBe(true);
    } finally {
      await bridged.close();
    }
  });

  it('renames its tools with bridge_ when the upstream has one of the name', async () => {
    const bridged = await client(process.execPath, [
      CLI,
      'bridge',
      '--profile',
      NO_READ,
      '--',
      process.execPath,
      ...FIXTURE,
    ]);
    try {
      const names = (await bridged.listTools()).map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['read_resource', 'bridge_read_resource', 'list_resources']),
      );
      expect(textOf(await bridged.callTool('read_resource', {}))).toBe('upstream');
      expect(
        textOf(await bridged.callTool('bridge_read_resource', { uri: 'test://hello.txt' })),
      ).toBe('héllo wörld\n');
    } finally {
      await bridged.close();
    }
  });

  it('with passthrough (the host reads resources) no tools are added', async () => {
    const bridged = await client(process.execPath, [
      CLI,
      'bridge',
      '--',
      process.execPath,
      ...FIXTURE,
    ]);
    try {
      const names = (await bridged.listTools()).map((t) => t.name).sort();
      expect(names).toEqual(['add-tool', 'crash', 'hang', 'read_resource', 'starts', 'touch']);
    } finally {
      await bridged.close();
    }
  });
});

describe('mcpkit bridge: an upstream that hangs or dies', () => {
  it('a hung upstream gives the host a clear error within --timeout, and the next call works', async () => {
    const bridged = await client(process.execPath, [
      CLI,
      'bridge',
      '--timeout',
      '1',
      '--',
      process.execPath,
      ...FIXTURE,
    ]);
    try {
      const error = await bridged.callTool('hang', {}, { timeoutMs: 20_000 }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toMatch(/tools\/call: the upstream server failed: .*REQUEST_TIMEOUT/);
      expect(textOf(await bridged.callTool('read_resource', {}))).toBe('upstream');
    } finally {
      await bridged.close();
    }
  });

  it('an upstream that exits is restarted and the host is told the lists changed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-bridge-restart-'));
    const counter = join(dir, 'starts');
    const notes: string[] = [];
    const bridged = await client(
      process.execPath,
      [CLI, 'bridge', '--', process.execPath, ...FIXTURE, counter],
      {
        era: 'legacy',
        onNotification: (n) => notes.push(n.method),
      },
    );
    try {
      expect(textOf(await bridged.callTool('starts', {}))).toBe('1');
      await bridged.callTool('crash', {});
      // The next call waits for the restart rather than failing.
      let text = '';
      for (let i = 0; i < 50 && text !== '2'; i++) {
        text = await bridged.callTool('starts', {}).then(textOf, () => '');
        if (text !== '2') await new Promise((r) => setTimeout(r, 100));
      }
      expect(text).toBe('2');
      for (let i = 0; i < 50 && !notes.includes('notifications/tools/list_changed'); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(notes).toContain('notifications/tools/list_changed');
    } finally {
      await bridged.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
