/**
 * The compiler over the whole project (src and test, so the type tests of test/types): `npm test`
 * runs vitest, which does not type-check, so this is where a handler that stops being typed
 * from its schema, or a test that no longer compiles, fails CI.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the project type-checks', () => {
  it('tsc -p tsconfig.json --noEmit reports nothing', () => {
    const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
    const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 240_000);
});
