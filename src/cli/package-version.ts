/** The version in the package's package.json (next to dist/ or src/). */
import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
