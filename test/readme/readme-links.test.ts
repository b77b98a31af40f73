/**
 * The README's links go somewhere: every relative link names a file or folder of the repository,
 * every `#anchor` (in the README or another Markdown file of it) a heading there, as GitHub makes
 * its anchors; and a section named in prose (`see "Title"`) is a heading's start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The text outside fenced code blocks (their lines blanked, so line numbers stay). */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

function headings(markdown: string): string[] {
  return [...prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1] as string);
}

/** GitHub's anchors: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const title of headings(markdown)) {
    const text = title.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function links(markdown: string): Array<{ target: string; line: number }> {
  const text = prose(markdown).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
  const out: Array<{ target: string; line: number }> = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const line = text.slice(0, m.index).split('\n').length;
    out.push({ target: m[1] as string, line });
  }
  return out;
}

/** Where each relative link of `file` fails to lead, as `line: target (why)`. */
function brokenLinks(file: string): string[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const { target, line } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not checked here
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) {
      broken.push(`${line}: ${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!resolved.endsWith('.md')) continue;
    if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
      broken.push(`${line}: ${target} (no such heading)`);
  }
  return broken;
}

describe('README.md links', () => {
  const readme = join(ROOT, 'README.md');

  it('every relative link and #anchor leads somewhere', () => {
    expect(links(readFileSync(readme, 'utf8')).length).toBeGreaterThan(5);
    expect(brokenLinks(readme)).toEqual([]);
  });

  it('every section named in prose, see "Title", is the start of a heading', () => {
    const markdown = readFileSync(readme, 'utf8');
    const titles = headings(markdown).map((t) => t.replace(/`/g, ''));
    const named = [...markdown.matchAll(/\bsee "([A-Z][^"]{2,80})"/g)].map((m) => m[1] as string);
    expect(named.filter((name) => !titles.some((t) => t.startsWith(name)))).toEqual([]);
  });

  it('anchors are made as GitHub makes them (a broken one is caught)', () => {
    const md = '# The client\n\n## Sharing one Redis: `mcpkit/redis`\n\n## The client\n';
    expect([...anchorsOf(md)]).toEqual([
      'the-client',
      'sharing-one-redis-mcpkitredis',
      'the-client-1',
    ]);
  });
});
