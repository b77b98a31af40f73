/**
 * vitest global setup: the end-to-end suites run the built package (dist/), so it is built here
 * when it is missing or older than any source file, instead of those suites skipping.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Written by every build (tsc emits each file anew), and looked at by the e2e suites. */
const MARKER = join(ROOT, 'dist', 'index.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Why dist/ must be built, or undefined when it is up to date. */
export function staleDist(): string | undefined {
  if (!existsSync(MARKER)) return 'dist/ is missing';
  const sources = Math.max(
    newestSource(join(ROOT, 'src')),
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
  );
  return sources > statSync(MARKER).mtimeMs ? 'dist/ is older than src/' : undefined;
}

export default function setup(): void {
  const why = staleDist();
  if (why === undefined) return;
  console.log(`building dist/ for the end-to-end suites (${why})`);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
