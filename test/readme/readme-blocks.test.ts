/**
 * Every ```ts block of the README and of the docs' guides (docs/**\/*.md, the generated API
 * reference aside) is type-checked against the built package, as a user would paste it, unless
 * the line above it says `<!-- fragment -->` (a deliberate excerpt that needs its surroundings).
 * The server, client and embed-vs-link examples are never fragments.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { modernMeta } from '../../src/testing/messages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(ROOT, 'test', '.tmp-readme-blocks'); // its own: other tests clear test/.tmp

interface Block {
  /** The markdown file, relative to the repository. */
  file: string;
  line: number;
  fragment: boolean;
  code: string;
}

function blocksOf(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```ts') continue;
    let end = i + 1;
    while (end < lines.length && lines[end]?.trim() !== '```') end++;
    out.push({
      file,
      line: i + 1,
      fragment: lines[i - 1]?.trim() === '<!-- fragment -->',
      code: lines.slice(i + 1, end).join('\n'),
    });
    i = end;
  }
  return out;
}

/** The hand-written pages of docs/: what TypeDoc and the site build generate is left out. */
function docsPages(dir = join(ROOT, 'docs')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'api' || entry.name.startsWith('.') ? [] : docsPages(path);
    return entry.name.endsWith('.md') ? [relative(ROOT, path)] : [];
  });
}

const blocks = ['README.md', ...docsPages()].flatMap((file) =>
  blocksOf(file, readFileSync(join(ROOT, file), 'utf8')),
);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('the TypeScript blocks of the README and the docs', () => {
  it('the server, client and embed-vs-link examples are whole programs, not fragments', () => {
    const find = (what: string) => blocks.find((b) => b.code.includes(what));
    expect(blocks.some((b) => b.file.startsWith('docs'))).toBe(true);
    for (const what of ["server.tool(\n  'shout'", "from 'mcpkit/connect'", "'latest-report'"]) {
      expect(find(what), what).toBeDefined();
      expect(find(what)?.fragment, what).toBe(false);
    }
    expect(blocks.filter((b) => !b.fragment).length).toBeGreaterThanOrEqual(5);
  });

  it('a heading that counts lines ("A server in 25 lines") counts its block as printed', () => {
    const markdown = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const counted = [...markdown.matchAll(/^## .* in (\d+) lines$/gm)];
    expect(counted.length).toBeGreaterThanOrEqual(2);
    for (const m of counted) {
      const at = markdown.slice(0, m.index).split('\n').length;
      const block = blocks.find((b) => b.file === 'README.md' && b.line > at);
      expect(block?.code.split('\n').length, m[0]).toBe(Number(m[1]));
    }
  });

  it('every block that is not a fragment type-checks against the built package', () => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    const files = blocks
      .filter((b) => !b.fragment)
      .map((b) => {
        // Errors name the file and the line the block starts at (docs-server.md-line-N.ts).
        const file = `${b.file.replace(/[/\\]/g, '-')}-line-${b.line}.ts`;
        // Each block is its own module (top-level await, its own names).
        writeFileSync(join(DIR, file), `${b.code}\nexport {};\n`);
        return file;
      });
    writeFileSync(
      join(DIR, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { noEmit: true },
        include: [],
        files,
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', join(DIR, 'tsconfig.json')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);

  it('the embed-vs-link example runs as printed: the PDF and the CSV both reach the result', () => {
    const block = blocks.find((b) => b.code.includes("'latest-report'"));
    mkdirSync(DIR, { recursive: true });
    const file = join(DIR, 'embed-or-link-run.ts');
    writeFileSync(
      file,
      `${block?.code}\n` +
        "import { connectInMemory } from 'mcpkit/memory';\n" +
        `const meta = ${JSON.stringify(modernMeta())};\n` +
        'const answer = await connectInMemory(server).send({ jsonrpc: "2.0", id: 1, ' +
        'method: "tools/call", params: { name: "latest-report", _meta: meta } });\n' +
        'console.log(JSON.stringify(answer));\n',
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toBe('');
    const answer = JSON.parse(r.stdout) as {
      result: {
        content: Array<{ type: string; text?: string; resource?: Record<string, unknown> }>;
      };
    };
    const [intro, pdf, csv] = answer.result.content;
    expect(intro).toEqual({ type: 'text', text: 'Latest report and its data:' });
    expect(pdf).toMatchObject({
      type: 'resource',
      resource: {
        uri: 'file:///reports/2026-11.pdf',
        mimeType: 'application/pdf',
        blob: 'JVBERi0xLjQK',
      },
    });
    expect(csv).toMatchObject({
      type: 'resource',
      resource: {
        uri: expect.stringMatching(/^mcpkit:\/\/artifacts\//),
        mimeType: 'text/csv',
        text: 'month,total\n2026-11,42\n',
      },
    });
  }, 60_000);
});
