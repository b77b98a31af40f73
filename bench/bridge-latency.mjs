// The bridge's added latency per request (issue 29), standalone; the same cell runs in
// `node bench/run.mjs --only bridge` (bench/lib/bridge-case.mjs).
// Usage: node bench/bridge-latency.mjs [--n requests-per-round] [--rounds r]   (after npm run build)
import { bridgeTable, runBridgeLatency } from './lib/bridge-case.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const cell = await runBridgeLatency({ n: arg('n', 500), rounds: arg('rounds', 4) });
console.log(bridgeTable(cell));
process.exit(cell.verdict === 'MET' ? 0 : 1);
