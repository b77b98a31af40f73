import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileOAuthStore } from './file-store.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('FileOAuthStore', () => {
  it('keeps every entry of saves made at once (one store for several servers)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-store-'));
    const store = new FileOAuthStore(join(dir, 'auth.json'));
    const servers = ['https://a.example/mcp', 'https://b.example/mcp', 'https://c.example/mcp'];
    await Promise.all(servers.map((s) => store.save(s, { issuer: s })));
    for (const s of servers) expect(await store.load(s)).toEqual({ issuer: s });
  });
});
