/**
 * The docs site: built once as `npm run docs` builds it (the generated pages, TypeDoc, VitePress),
 * then every guide's title is on its page, and every internal link resolves, in the markdown
 * (between pages, anchors included, and to the repository's files) and in the built HTML. The
 * TypeScript blocks of the guides are type-checked by test/readme/readme-blocks.test.ts.
 * DOCS_SITE_BUILT=1 reuses the last build (docs/.vitepress/dist) instead of building again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_VALUE_FLAGS } from '../../src/cli/serve-auth.js';
import { VALUE_OPTIONS } from '../../src/cli/serve-options.js';
import { MCPKIT_ERROR_CODES } from '../../src/errors/codes.js';
import { ERROR_CODES } from '../../src/protocol/error-codes.js';
import { repoPath } from '../../docs/.vitepress/repo-link.mjs';
import {
  githubSlug,
  h1Text,
  htmlIds,
  htmlLinks,
  isExternal,
  markdownLinks,
  titleText,
} from './links.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const DIST = join(DOCS, '.vitepress', 'dist');

/** The guides the issue names, by file. */
const REQUIRED = [
  'server',
  'embed-or-link',
  'large-resources',
  'listening',
  'client',
  'host',
  'ssrf-guard',
  'serve',
  'inspect',
  'audit',
  'bridge',
  'authorization',
  'search',
  'redis',
  'limits',
  'errors',
];

/** Files under `dir` (relative to it, with `/`) whose name ends with `ext`, dot-folders left out. */
function filesOf(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesOf(path, ext).map((file) => `${entry.name}/${file}`);
    return entry.name.endsWith(ext) ? [entry.name] : [];
  });
}

function run(args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
}

const html = new Map<string, string>();
/** The built page of a docs path (`serve.md`, `api/`), or undefined when there is none. */
function page(path: string): string | undefined {
  const file =
    path.endsWith('/') || path === '' ? `${path}index.html` : path.replace(/\.md$/, '.html');
  if (!html.has(file)) {
    const full = join(DIST, file);
    if (!existsSync(full)) return undefined;
    html.set(file, readFileSync(full, 'utf8'));
  }
  return html.get(file);
}

beforeAll(() => {
  if (process.env['DOCS_SITE_BUILT'] === '1' && existsSync(join(DIST, 'index.html'))) return;
  run(['--import', 'tsx', 'scripts/docs/generate.mjs']);
  run([join('node_modules', 'typedoc', 'bin', 'typedoc'), '--logLevel', 'Error']);
  run([join('node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build', 'docs']);
}, 300_000);

describe('the docs site', () => {
  const pages = filesOf(DOCS, '.md');
  const guides = pages.filter((p) => !p.startsWith('api/'));

  it('has the guides the issue names, and every guide starts with a plain "# Title" line', () => {
    for (const name of REQUIRED) expect(guides, name).toContain(`${name}.md`);
    expect(guides.length).toBeGreaterThanOrEqual(16);
    for (const guide of guides) {
      const first = readFileSync(join(DOCS, guide), 'utf8').split('\n')[0] ?? '';
      // Plain: no markup, so that the line reads the same in the page (`mcpkit serve`, not code).
      expect(first, guide).toMatch(/^# [^\s`*_<>[\]\\][^`*_<>[\]\\]*$/);
    }
  });

  it('shows each guide’s title as the heading of its built page', () => {
    for (const guide of guides) {
      const first = readFileSync(join(DOCS, guide), 'utf8').split('\n')[0] ?? '';
      const built = page(guide);
      expect(built, `${guide} was not built`).toBeDefined();
      expect(h1Text(built ?? ''), guide).toBe(titleText(first));
      // As written, in the heading and in the page's title.
      const escaped = first.slice(2).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      expect(built, guide).toContain(`<title>${escaped}`);
    }
  });

  it('resolves every link of the markdown: pages, anchors and the repository’s files', () => {
    const broken: string[] = [];
    for (const file of pages) {
      const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
      for (const href of markdownLinks(readFileSync(join(DOCS, file), 'utf8'))) {
        if (isExternal(href)) continue;
        const inRepo = repoPath(dir, href);
        if (inRepo !== undefined) {
          if (!existsSync(join(ROOT, inRepo))) broken.push(`${file}: ${href} (no ${inRepo})`);
          continue;
        }
        const [path = '', anchor] = href.split('#');
        const target = path === '' ? file : posix.normalize(posix.join(dir, path));
        const built = page(target === '.' ? '' : target);
        if (!existsSync(join(DOCS, target)) || built === undefined)
          broken.push(`${file}: ${href} (no page ${target})`);
        else if (anchor && !htmlIds(built).has(decodeURIComponent(anchor)))
          broken.push(`${file}: ${href} (no #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('resolves every internal href and src of the built site, anchors included', () => {
    const broken: string[] = [];
    const built = filesOf(DIST, '.html');
    expect(built.length).toBeGreaterThan(guides.length);
    for (const file of built) {
      const at = page(file) ?? '';
      for (const raw of htmlLinks(at)) {
        if (raw === '' || isExternal(raw)) continue;
        const [pathAndQuery = '', anchor] = raw.split('#');
        const path = pathAndQuery.split('?')[0] ?? '';
        let target = path.startsWith('/')
          ? path.slice(1)
          : path === ''
            ? file
            : posix.normalize(posix.join(posix.dirname(file), path));
        if (target === '' || target.endsWith('/')) target += 'index.html';
        else if (!posix.extname(target)) target += '.html';
        const full = join(DIST, target);
        if (!existsSync(full) || !statSync(full).isFile()) {
          broken.push(`${file}: ${raw}`);
          continue;
        }
        if (anchor && target.endsWith('.html')) {
          const ids = htmlIds(page(target) ?? '');
          if (!ids.has(decodeURIComponent(anchor))) broken.push(`${file}: ${raw} (no #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('resolves the README’s links into the repository and the docs', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const own = new Set([...readme.matchAll(/^#{1,6} (.*)$/gm)].map((m) => githubSlug(m[1] ?? '')));
    const broken: string[] = [];
    for (const href of markdownLinks(readme)) {
      if (isExternal(href)) continue;
      const [path = '', anchor] = href.split('#');
      if (path === '') {
        if (anchor && !own.has(anchor)) broken.push(href);
        continue;
      }
      if (!existsSync(join(ROOT, path))) broken.push(href);
      else if (anchor && path.startsWith('docs/')) {
        const built = page(relative(DOCS, join(ROOT, path)).split(sep).join('/'));
        if (!built || !htmlIds(built).has(anchor)) broken.push(href);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has an API page for every entry point of the package', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, string>;
    };
    const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');
    expect(subpaths.length).toBeGreaterThan(10);
    for (const subpath of subpaths) {
      const name = subpath === '.' ? 'mcpkit' : `mcpkit/${subpath.slice(2)}`;
      expect(h1Text(page(`api/${name}.md`) ?? ''), subpath).toBe(name);
    }
  });

  it('generates the CLI reference from the help texts: every option of the parser is in it', () => {
    const cli = readFileSync(join(DOCS, 'cli.md'), 'utf8');
    for (const verb of ['serve', 'inspect', 'audit']) expect(cli).toContain(`## mcpkit ${verb}`);
    const flags = [...Object.keys(VALUE_OPTIONS), ...Object.keys(AUTH_VALUE_FLAGS)];
    // Each as a row of its own, or (--auth-client-id) in the row of the option it goes with.
    for (const flag of flags) expect(cli, flag).toMatch(new RegExp(`${flag}\\b`));
    for (const verb of ['serve', 'inspect', 'audit'])
      expect(page('cli.md'), verb).toContain(`id="mcpkit-${verb}"`);
  });

  it('generates the error-code table from the catalogue: every code, with its meaning', () => {
    const table = page('error-codes.md') ?? '';
    for (const code of Object.keys(MCPKIT_ERROR_CODES))
      expect(table, code).toContain(`id="${code.toLowerCase()}"`);
    for (const code of Object.values(ERROR_CODES))
      expect(table, String(code)).toContain(`<code>${code}</code>`);
    // The doc comment of a code reaches the page.
    expect(table).toContain('The SSRF guard refused an address');
  });
});
