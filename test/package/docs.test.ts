/**
 * `npm run docs`: the API reference generated from the TSDoc of every public entry point
 * (typedoc.json), here built into a temporary folder and looked at.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
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
    expect(pkg.scripts['docs']).toBe('typedoc');
    const typedoc = join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc');
    const r = spawnSync(process.execPath, [typedoc, '--out', out, '--logLevel', 'Error'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    // One module page per subpath, named as users import it.
    const modules = readdirSync(join(out, 'modules')).sort();
    expect(modules).toEqual(
      expect.arrayContaining([
        'mcpkit.html',
        'mcpkit_server.html',
        'mcpkit_node.html',
        'mcpkit_guard.html',
      ]),
    );
    const functions = readdirSync(join(out, 'functions'));
    expect(functions.some((f) => f.endsWith('.createServer.html'))).toBe(true);
    expect(functions.some((f) => f.endsWith('.serveStdio.html'))).toBe(true);
    const types = readdirSync(join(out, 'types'));
    expect(types.some((f) => f.endsWith('.TemplateVariables.html'))).toBe(true);
    const page = readFileSync(
      join(out, 'functions', functions.find((f) => f.endsWith('.createServer.html')) as string),
      'utf8',
    );
    expect(page).toContain('createServer');
  }, 240_000);
});
