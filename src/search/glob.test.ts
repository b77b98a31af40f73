import { describe, expect, it } from 'vitest';
import { compileGlob, MAX_GLOB_ALTERNATIVES } from './glob.js';

describe('compileGlob', () => {
  it.each<[string, string[], string[]]>([
    ['src/**/*.ts', ['src/a.ts', 'src/deep/er/b.ts'], ['src/a.js', 'lib/a.ts', 'a.ts']],
    ['*.md', ['README.md', '.hidden.md'], ['docs/a.md']],
    ['**/*.md', ['README.md', 'docs/a.md', 'a/b/c.md'], ['a.mdx']],
    ['docs/?.txt', ['docs/a.txt'], ['docs/ab.txt', 'docs/.txt']],
    ['*.{ts,js}', ['a.ts', 'b.js'], ['c.md']],
    ['f[0-9][!a].txt', ['f1b.txt'], ['f1a.txt', 'fxb.txt']],
    ['a\\*b', ['a*b'], ['axb']],
    ['**', ['a', 'a/b/c'], []],
    ['src/**', ['src/a', 'src/a/b'], ['lib/a']],
  ])('%s', (pattern, yes, no) => {
    const match = compileGlob(pattern);
    for (const path of yes) expect(match(path), path).toBe(true);
    for (const path of no) expect(match(path), path).toBe(false);
  });

  // Backtracking matchers take seconds to minutes per path on these: here 600 matches must end
  // within the test's own time limit.
  it('answers hostile patterns (no exponential backtracking)', () => {
    const name = 'x'.repeat(60);
    for (const pattern of [`**/*${'[a-z]*'.repeat(40)}Q`, `${'*a'.repeat(60)}b`, '*'.repeat(400)]) {
      const match = compileGlob(pattern);
      for (let i = 0; i < 200; i++) expect(match(`dir/${name}`)).toBe(false);
    }
  });

  it('refuses unbalanced and exploding patterns', () => {
    expect(() => compileGlob('a{b')).toThrow(/without its "}"/);
    expect(() => compileGlob('[ab')).toThrow(/without its "]"/);
    expect(() => compileGlob('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}')).toThrow(
      new RegExp(`more than ${MAX_GLOB_ALTERNATIVES}`),
    );
  });
});
