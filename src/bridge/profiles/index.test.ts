import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../../errors/index.js';
import { builtinProfileNames, explainProfile, loadProfile } from './index.js';

const dir = await mkdtemp(join(tmpdir(), 'mcpkit-profiles-'));
let n = 0;
async function file(json: unknown): Promise<string> {
  const path = join(dir, `p${n++}.json`);
  await writeFile(path, typeof json === 'string' ? json : JSON.stringify(json));
  return path;
}

async function failure(spec: string): Promise<{ code: string; message: string }> {
  try {
    await loadProfile(spec);
  } catch (error) {
    if (isMcpKitError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('loaded');
}

describe('host profiles', () => {
  it('has the built-ins the issue names', () => {
    for (const name of [
      'claude-code',
      'claude-desktop',
      'cursor',
      'vscode',
      'gemini-cli',
      'goose',
      'generic-text-only',
      'passthrough',
    ])
      expect(builtinProfileNames()).toContain(name);
  });

  it.each(builtinProfileNames().map((n) => [n]))(
    '%s: explain → load from a file gives it back',
    async (name) => {
      const profile = await loadProfile(name);
      const again = await loadProfile(await file(explainProfile(profile)));
      expect(again).toEqual(profile);
      expect(JSON.parse(explainProfile(again))).toEqual(JSON.parse(explainProfile(profile)));
    },
  );

  it('generic-text-only: no links, image blobs only, embedded text kept', async () => {
    const p = await loadProfile('generic-text-only');
    expect(p.tools).toMatchObject({ resourceLinks: 'drop', blobs: 'image/*', embeddedText: true });
    expect(p.readsResources).toBe(false);
  });

  it('gemini-cli prompts take text only', async () => {
    expect((await loadProfile('gemini-cli')).prompts.nonText).toBe(false);
  });

  it('an unknown name lists the known ones', async () => {
    const { code, message } = await failure('claude-kode');
    expect(code).toBe('BRIDGE_UNKNOWN_PROFILE');
    for (const name of builtinProfileNames()) expect(message).toContain(name);
  });

  it('a file overrides a field of its base, the rest is the base', async () => {
    const p = await loadProfile(
      await file({ extends: 'claude-code', name: 'mine', tools: { blobs: 'none' } }),
    );
    const base = await loadProfile('claude-code');
    expect(p.name).toBe('mine');
    expect(p.tools).toEqual({ ...base.tools, blobs: 'none' });
    expect(p.prompts).toEqual(base.prompts);
  });

  it('without extends the base is passthrough, and the name defaults to the file name', async () => {
    const path = await file({ tools: { resourceLinks: 'drop' } });
    const p = await loadProfile(path);
    expect(p.tools.resourceLinks).toBe('drop');
    expect(p.tools.blobs).toBe('all');
    expect(p.name).toMatch(/^p\d+$/);
  });

  it.each([
    [{ tools: { blobs: 'images' } }, 'tools.blobs'],
    [{ prompts: { nonText: 'no' } }, 'prompts.nonText'],
    [{ tools: { maxResult: { chars: -1 } } }, 'tools.maxResult.chars'],
    [{ tools: { maxResult: {} } }, 'tools.maxResult'],
    [{ tools: { nonText: false } }, 'tools.nonText'],
    [{ extends: 'nope' }, 'extends'],
    [{ read: { schemes: 'https' } }, 'read.schemes'],
    [{ readsResource: true }, 'readsResource'],
    [{ resizeImages: true }, 'resizeImages'],
    [[], '(root)'],
  ])('a bad file %j names the field %s', async (json, field) => {
    const { code, message } = await failure(await file(json));
    expect(code).toBe('BRIDGE_BAD_PROFILE');
    expect(message).toContain(`"${field}"`);
  });

  it('a file that is not JSON is a bad profile', async () => {
    const { code, message } = await failure(await file('{ nope'));
    expect(code).toBe('BRIDGE_BAD_PROFILE');
    expect(message).toContain('not valid JSON');
  });

  it('each load is a fresh copy', async () => {
    const a = await loadProfile('claude-code');
    a.tools.blobs = 'all';
    expect((await loadProfile('claude-code')).tools.blobs).toBe('image/*');
  });
});
