import { readFile } from 'node:fs/promises';
import AjvModule from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { builtinProfileNames, explainProfile, loadProfile } from './index.js';

type AjvClass = typeof AjvModule.default;
const Ajv2020 = ((AjvModule as unknown as { default?: AjvClass }).default ?? AjvModule) as AjvClass;
const schema = JSON.parse(
  await readFile(new URL('../../../docs/bridge-profile.schema.json', import.meta.url), 'utf8'),
) as object;
const validate = new Ajv2020({ strict: true }).compile(schema);

describe('docs/bridge-profile.schema.json', () => {
  it.each(builtinProfileNames().map((n) => [n]))(
    'accepts what --explain-profile %s prints',
    async (name) => {
      const json: unknown = JSON.parse(explainProfile(await loadProfile(name)));
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it.each([
    { tools: { blobs: 'images' } },
    { prompts: { nonText: 1 } },
    { tools: { maxResult: {} } },
    { extends: 'nope' },
    { resizeImages: true },
    { unknown: 1 },
  ])('refuses %j, as loadProfile does', (json) => {
    expect(validate(json)).toBe(false);
  });

  it('accepts an override file', () => {
    expect(
      validate({
        extends: 'claude-code',
        tools: { maxResult: { tokens: 10000 } },
        read: { uriPatterns: ['test://*'] },
      }),
    ).toBe(true);
  });
});
