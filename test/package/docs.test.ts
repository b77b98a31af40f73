/**
 * `npm run docs`: the API reference generated from the TSDoc of every public entry point
 * (typedoc.json, as markdown pages of the docs site), here built into a temporary folder and
 * looked at. The whole site is checked by test/docs/site.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'mcpkit-docs-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the API reference (npm run docs)', () => {
  it('builds from the TSDoc of every entry point, createServer and the inferred types included', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // The site's build runs TypeDoc (typedoc.json) among its steps.
    expect(pkg.scripts['docs']).toMatch(/(^|&& )typedoc( |$)/);
    const typedoc = join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
    const r = spawnSync(process.execPath, [typedoc, '--out', out, '--logLevel', 'Error'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(existsSync(join(out, 'index.md'))).toBe(true);
    // One markdown page per subpath, named as users import it.
    for (const page of ['mcpkit.md', 'mcpkit/server.md', 'mcpkit/node.md', 'mcpkit/guard.md'])
      expect(existsSync(join(out, page)), page).toBe(true);
    const read = (page: string) => readFileSync(join(out, page), 'utf8');
    expect(read('mcpkit/server.md')).toMatch(/^### createServer\b/m);
    expect(read('mcpkit/stdio.md')).toMatch(/^### serveStdio\b/m);
    expect(read('mcpkit/server.md')).toMatch(/^### TemplateVariables/m);
    // Generic types stay text (no raw `<` for the site's Vue templates to read as tags).
    expect(read('mcpkit/server.md')).not.toMatch(/Promise<[A-Z]/);
  }, 240_000);
});
