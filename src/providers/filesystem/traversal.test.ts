/**
 * Nothing outside the root is ever read: a corpus of traversal forms through resources/read, each
 * answered -32602 with no file bytes in the response and no file opened; with reads run
 * asynchronously and synchronously (testing/fs-modes.ts).
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { initializeRequest, legacy, modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { FS_MODES, hookedFs } from '../../testing/fs-modes.js';
import { createFilesystemProvider } from './filesystem-provider.js';

const MARKER = 'MCPKIT-SECRET-MARKER-5d1e0b7a';
const PASSWD = 'root:x:0:0';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-fs-traversal-'));
  root = join(base, 'root');
  await mkdir(join(root, 'notes'), { recursive: true });
  await mkdir(join(root, 'a'), { recursive: true });
  await writeFile(join(root, 'notes', 'a.md'), 'inside');
  await writeFile(join(base, 'secret.txt'), MARKER);
  await writeFile(join(base, 'root-sibling.txt'), MARKER); // shares the root's name as a prefix
  await mkdir(join(base, 'rootx'));
  await writeFile(join(base, 'rootx', 'secret.txt'), MARKER);
  await symlink('/etc', join(root, 'link-etc'));
  await symlink(join(base, 'secret.txt'), join(root, 'link-secret'));
  await symlink('../secret.txt', join(root, 'link-relative.txt'));
  await symlink(base, join(root, 'link-up'));
  await symlink(join(root, 'link-secret'), join(root, 'chain.txt')); // inside -> inside -> outside
  await symlink(join(root, 'loop-b'), join(root, 'loop-a'));
  await symlink(join(root, 'loop-a'), join(root, 'loop-b'));
  await symlink(join(base, 'rootx'), join(root, 'notes', 'sub'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const CORPUS: string[] = [
  'file:///..%2F..%2Fetc%2Fpasswd',
  'file:///..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
  'file:///%2e%2e/',
  'file:///%2e%2e/secret.txt',
  'file:///%2E%2E/secret.txt',
  'file:///%2e%2e%2fsecret.txt',
  'file:///%2e%2e%5csecret.txt',
  'file:///.%2e/secret.txt',
  'file:///%2e./secret.txt',
  'file:///../secret.txt',
  'file:///a/../../secret.txt',
  'file:///a/../../x',
  'file:///notes/../../secret.txt',
  'file:///notes/%2e%2e/%2e%2e/secret.txt',
  'file:///notes/..%2f..%2fsecret.txt',
  'file:///notes/a.md/../../../secret.txt',
  'file:///..;/secret.txt',
  'file:///..%20/secret.txt',
  'file:///.../secret.txt',
  'file:///..%2e/secret.txt',
  'file:///%00',
  'file:///notes/a.md%00.txt',
  'file:///%00../secret.txt',
  'file:///..\\',
  'file:///..%5C',
  'file:///..%5Csecret.txt',
  'file:///%5C..%5Csecret.txt',
  'file:///notes%5C..%5C..%5Csecret.txt',
  'file:////etc/passwd',
  'file:////%2e%2e/secret.txt',
  'file:///%2Fetc%2Fpasswd',
  'file:///%2fetc/passwd',
  'file:///C:%5Cwindows',
  'file:///C:/windows/win.ini',
  'file:///c:%2fwindows%2fwin.ini',
  'file:///%252e%252e/secret.txt',
  'file:///%252e%252e%252fsecret.txt',
  'file:///..%252fsecret.txt',
  'file:///%25252e%25252e/secret.txt',
  'file:///%c0%ae%c0%ae/secret.txt',
  'file:///%e0%80%ae%e0%80%ae/secret.txt',
  'file:///%ef%bc%8e%ef%bc%8e/secret.txt',
  'file:///link-etc/passwd',
  'file:///link-etc/hostname',
  'file:///link-secret',
  'file:///link-relative.txt',
  'file:///link-up/secret.txt',
  'file:///link-up/root-sibling.txt',
  'file:///chain.txt',
  'file:///loop-a',
  'file:///notes/sub/secret.txt',
  'file:///link-etc/../secret.txt',
  'file://localhost/etc/passwd',
  'file:/etc/passwd',
  'file:///notes/a.md#/../../secret.txt',
  'file:///notes/a.md?x=../../secret.txt',
];

describe.each(FS_MODES)('filesystem provider: traversal corpus, %s reads', (mode) => {
  let conn: MemoryConnection;
  let legacyConn: MemoryConnection;
  const opens: string[] = [];

  beforeAll(async () => {
    const fs = hookedFs(mode, { open: (path) => void opens.push(path) });
    const server = createServer({ name: 't', version: '1' });
    const provider = createFilesystemProvider({ root, fs });
    provider.register(server);
    await provider.ready();
    conn = connectInMemory(server);
    legacyConn = connectInMemory(server);
    await legacyConn.send(initializeRequest());
    await legacyConn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });

  it('has at least 30 forms', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CORPUS)('%s -> -32602, no bytes, nothing opened', async (uri) => {
    const before = opens.length;
    const res = await conn.send(modern('resources/read', { uri }));
    expect(res).toMatchObject({ error: { code: -32602 } });
    const json = JSON.stringify(res);
    expect(json).not.toContain(MARKER);
    expect(json).not.toContain(PASSWD);
    expect(json).not.toContain(base);
    expect(opens.slice(before).filter((p) => !p.startsWith(join(root, 'notes', 'a.md')))).toEqual(
      [],
    );
  });

  it('refuses symlink escapes in the 2025-11-25 era with -32602 too (not "not found")', async () => {
    for (const uri of [
      'file:///link-secret',
      'file:///link-up/secret.txt',
      'file:///%2e%2e/secret.txt',
    ]) {
      const res = await legacyConn.send(legacy('resources/read', { uri }));
      expect(res, uri).toMatchObject({
        error: { code: -32602, message: expect.stringContaining('Refused') },
      });
      expect(JSON.stringify(res)).not.toContain(MARKER);
    }
  });

  it('lists nothing that leads outside, and still serves what is inside', async () => {
    const res = (await conn.send(modern('resources/list'))) as unknown as {
      result: { resources: Array<{ name: string }> };
    };
    expect(res.result.resources.map((r) => r.name)).toEqual(['notes/a.md']);
    expect(await conn.send(modern('resources/read', { uri: 'file:///notes/a.md' }))).toMatchObject({
      result: { contents: [{ text: 'inside' }] },
    });
    expect(await readFile(join(base, 'secret.txt'), 'utf8')).toBe(MARKER);
  });
});
