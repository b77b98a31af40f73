// Writes the generated pages of the docs site (not committed): docs/cli.md from the help texts
// the command prints, docs/error-codes.md from the error catalogue. Run with `node --import tsx`
// (it reads the TypeScript sources directly: no build needed).
import { readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliReference } from './cli-reference.mjs';
import { errorTable } from './error-table.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every module of src/cli that holds help texts: usage.ts and any NAME-usage.ts. */
async function usageModules() {
  const dir = `${ROOT}src/cli/`;
  const files = readdirSync(dir).filter((f) => f === 'usage.ts' || f.endsWith('-usage.ts'));
  return Promise.all(files.sort().map((f) => import(pathToFileURL(dir + f).href)));
}

writeFileSync(`${ROOT}docs/cli.md`, cliReference(await usageModules()));
writeFileSync(`${ROOT}docs/error-codes.md`, errorTable(ROOT));
console.log('wrote docs/cli.md and docs/error-codes.md');
