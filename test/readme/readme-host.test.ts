import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The resolver example (docs/host.md, and the README while it carries one) must run as printed,
// with a client and a consent prompt around it.
const root = join(import.meta.dirname, '..', '..');
const examples = ['README.md', join('docs', 'host.md')].flatMap((file) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .filter((block) => block.includes('new Resolver(')),
);
const code = examples[0];
const dir = join(root, 'test', '.tmp-host');
const file = join(dir, 'readme-host.ts');

const BEFORE = `import { connect } from 'mcpkit/connect';
const client = await connect({ command: process.execPath, args: ['dist/cli/main.js', 'serve', 'examples/docs', '--stdio', '--quiet'] });
// The person says yes to everything but the JSON file.
const askUser = async (question: string) => (console.log('asked: ' + question), !question.includes('defaults.json'));
`;
const AFTER = `\nresolver.close();\nawait client.close();\n`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README resolver example', () => {
  it('is in docs/host.md, and any copy in the README is the same', () => {
    expect(examples.length).toBeGreaterThanOrEqual(1);
    expect(new Set(examples).size).toBe(1);
  });

  it('runs as printed against mcpkit serve examples/docs: consent asked per link, outcomes printed', async () => {
    expect(code).toBeDefined();
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, BEFORE + (code ?? '') + AFTER);
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exit = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(exit).toBe(0);
    // Outcomes end with the reason ('' when read): compare without the trailing space.
    const lines = out.split('\n').map((line) => line.trimEnd());
    const size = Buffer.byteLength(readFileSync(join(root, 'examples', 'docs', 'README.md')));
    expect(lines).toContain(`asked: Read README.md (${size} bytes) from mcpkit-serve?`);
    expect(lines).toContain('file:///README.md read');
    expect(lines).toContain('file:///data/defaults.json refused consent: refused');
  }, 30_000);
});
