import { describe, expect, it } from 'vitest';
import { MODERN_VERSIONS } from '../../protocol/versions.js';
import { testEnv, testServer } from '../../testing/server-core.js';
import { discoverMethods } from './discover.js';
import { methodFacts } from '../../protocol/methods.js';

const discover = discoverMethods['server/discover']!;

describe('server/discover', () => {
  it('reports the modern versions and the server capabilities, and no instructions unset', async () => {
    const { core } = testServer();
    const result = await discover.run({}, testEnv(core));
    expect(result).toEqual({
      supportedVersions: ['2026-07-28'],
      capabilities: core.capabilities(),
    });
    expect(result).not.toHaveProperty('instructions');
  });

  it('includes extra capabilities from the options and the instructions', async () => {
    const { core } = testServer({
      instructions: 'Use search first.',
      capabilities: { experimental: { x: {} } },
    });
    expect(await discover.run({}, testEnv(core))).toMatchObject({
      capabilities: { tools: { listChanged: true }, experimental: { x: {} } },
      instructions: 'Use search first.',
    });
  });

  it('hands out a copy of the version list, never the shared one', async () => {
    const { core } = testServer();
    const result = (await discover.run({}, testEnv(core))) as { supportedVersions: string[] };
    expect(result.supportedVersions).not.toBe(MODERN_VERSIONS);
    result.supportedVersions.push('mutated');
    expect(MODERN_VERSIONS).toEqual(['2026-07-28']);
  });

  it('is cached like a list and binds no requestState', () => {
    expect(methodFacts('server/discover')?.cache).toBe('list');
    expect(discover.target).toBeUndefined();
  });
});
