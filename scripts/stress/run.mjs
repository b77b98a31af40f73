// mcpkit stress run: load and fault cases against real `mcpkit serve` processes, on 127.0.0.1.
// Usage: node scripts/stress/run.mjs [--only name,name] [--no-write] [--no-inspect]
// (npm run stress builds first)
// Prints one figure per case, then the table; writes docs/reliability.md; exits 1 if a target failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createContext } from './lib/case.mjs';
import { removeAllDirs } from './lib/files.mjs';
import { consoleLine, machine, markdown, passed, textTable, verdicts } from './lib/report.mjs';
import { inspect, listedFlags, stopAllServers } from './lib/server.mjs';
import { withTimeout } from './lib/time.mjs';
import * as listeners from './cases/listeners.mjs';
import * as stdioUnread from './cases/stdio-unread.mjs';
import * as stalledBodies from './cases/stalled-bodies.mjs';
import * as deepJson from './cases/deep-json.mjs';
import * as searchCost from './cases/search-cost.mjs';
import * as legacySessions from './cases/legacy-sessions.mjs';
import * as tornReads from './cases/torn-reads.mjs';
import * as sameId from './cases/same-id.mjs';
import * as disconnects from './cases/disconnects.mjs';
import * as clientRequestFlood from './cases/client-request-flood.mjs';
import * as partFlood from './cases/part-flood.mjs';
import * as hugeLists from './cases/huge-lists.mjs';

const CASES = [
  listeners,
  stdioUnread,
  stalledBodies,
  deepJson,
  searchCost,
  legacySessions,
  tornReads,
  sameId,
  disconnects,
  clientRequestFlood,
  partFlood,
  hugeLists,
];
const CASE_LIMIT_MS = 120_000;
const DOC = new URL('../../docs/reliability.md', import.meta.url);

function options(argv) {
  const opts = { only: null, write: true };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--no-write') opts.write = false;
    else if (argv[i] === '--no-inspect') inspect.enabled = false;
    else if (argv[i] === '--only') opts.only = new Set(argv[++i]?.split(','));
    else if (argv[i].startsWith('--only=')) opts.only = new Set(argv[i].slice(7).split(','));
    else
      throw new Error(`unknown argument ${argv[i]}; options: --only a,b  --no-write  --no-inspect`);
  }
  const names = CASES.map((c) => c.name);
  for (const name of opts.only ?? []) {
    if (!names.includes(name)) throw new Error(`no case ${name}; cases: ${names.join(', ')}`);
  }
  return opts;
}

async function runCase(spec) {
  const ctx = createContext();
  const t0 = Date.now();
  try {
    const rows = [await withTimeout(spec.run(ctx), CASE_LIMIT_MS, spec.name)].flat();
    return rows.map((row) => ({ ...row, seconds: (Date.now() - t0) / 1000 }));
  } catch (error) {
    const row = {
      label: spec.name,
      scale: spec.scale ?? '',
      failed: true,
      notes: [`CASE FAILED: ${error.stack}`],
    };
    return [
      {
        ...row,
        requests: 0,
        answers: 0,
        errors: 0,
        wrong: 0,
        lost: 0,
        before: null,
        peak: null,
        after: null,
        slowestMs: null,
      },
    ];
  } finally {
    await ctx.cleanup();
  }
}

/** The repository's Prettier style, so that `npm run lint` accepts the written file. */
async function formatted(text) {
  try {
    const prettier = await import('prettier');
    const config = (await prettier.resolveConfig(fileURLToPath(DOC))) ?? {};
    return await prettier.format(text, { ...config, parser: 'markdown' });
  } catch {
    return text;
  }
}

async function main() {
  const opts = options(process.argv.slice(2));
  const info = machine();
  const listed = listedFlags();
  console.log(
    `mcpkit stress: ${info.cpu}, ${info.cores} cores, ${info.memory}, Node ${info.node}, load ${info.load}`,
  );
  console.log(`serve options in --help: ${[...listed].join(' ')}\n`);
  const t0 = Date.now();
  const rows = [];
  for (const spec of CASES) {
    if (opts.only && !opts.only.has(spec.name)) continue;
    console.log(`${spec.name}: ${spec.scale}`);
    for (const row of await runCase(spec)) {
      rows.push(row);
      console.log(`  ${consoleLine(row)}`);
      for (const note of row.notes) console.log(`  - ${note}`);
    }
  }
  const seconds = (Date.now() - t0) / 1000;
  console.log(`\n${textTable(rows)}\n\n${seconds.toFixed(0)} s`);
  if (opts.write) {
    mkdirSync(new URL('.', DOC), { recursive: true });
    writeFileSync(DOC, await formatted(markdown(rows, info, seconds)));
    console.log(`wrote docs/reliability.md`);
  }
  const failed = rows.filter((r) => !passed(r));
  for (const r of failed) {
    const v = verdicts(r);
    console.log(
      `FAIL ${r.label}: ${Object.keys(v)
        .filter((k) => v[k] === 'FAIL')
        .join(', ')}`,
    );
  }
  return failed.length === 0 ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    removeAllDirs();
    process.exit(130); // the exit hook of lib/server.mjs kills every server still running
  });
}

main()
  .then(async (code) => {
    await stopAllServers();
    removeAllDirs();
    process.exit(code);
  })
  .catch(async (error) => {
    console.error(error);
    await stopAllServers();
    removeAllDirs();
    process.exit(2);
  });
