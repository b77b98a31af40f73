// The bridge's added latency per request (issue 29): the same small requests, one at a time over
// stdio, to `mcpkit serve examples/docs` directly and through `mcpkit bridge --profile
// passthrough`, in interleaved rounds; prints p50/p99 of each and the difference of the p50s.
// Usage: node bench/bridge-latency.mjs [--n requests-per-round] [--rounds r]   (after npm run build)
import { fileURLToPath } from 'node:url';
import { McpClient } from '../dist/client/index.js';
import { StdioClientTransport } from '../dist/transports/stdio/client/index.js';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const N = arg('n', 500);
const ROUNDS = arg('rounds', 4);
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const SERVE = [CLI, 'serve', 'examples/docs', '--stdio', '--quiet', '--no-watch'];
const TARGETS = {
  direct: SERVE,
  bridge: [CLI, 'bridge', '--profile', 'passthrough', '--', process.execPath, ...SERVE],
};
const REQUESTS = [
  ['resources/read', { uri: 'file:///data/defaults.json' }],
  ['tools/list', {}],
  ['tools/call', { name: 'read', arguments: { path: 'notes/security.md' } }],
];

async function open(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  return new McpClient({ transport, cache: false, era: 'modern' }).connect();
}

async function round(client, samples) {
  for (let i = 0; i < N; i++) {
    const [method, params] = REQUESTS[i % REQUESTS.length];
    const start = process.hrtime.bigint();
    await client.request(method, params);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

const clients = Object.fromEntries(
  await Promise.all(Object.entries(TARGETS).map(async ([name, args]) => [name, await open(args)])),
);
const samples = { direct: [], bridge: [] };
for (const name of Object.keys(clients)) await round(clients[name], []); // warm-up
for (let r = 0; r < ROUNDS; r++)
  for (const name of Object.keys(clients)) await round(clients[name], samples[name]);
await Promise.all(Object.values(clients).map((c) => c.close()));

const rows = Object.entries(samples).map(([name, s]) => {
  const sorted = [...s].sort((a, b) => a - b);
  return { target: name, requests: s.length, p50_ms: pct(sorted, 50), p99_ms: pct(sorted, 99) };
});
console.table(rows.map((r) => ({ ...r, p50_ms: r.p50_ms.toFixed(3), p99_ms: r.p99_ms.toFixed(3) })));
const added = rows[1].p50_ms - rows[0].p50_ms;
console.log(`bridge added latency, p50: ${added.toFixed(3)} ms per request (goal: <= 1 ms)`);
