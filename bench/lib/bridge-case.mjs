// The bridge cell (issue 29): the bridge's added latency per request over stdio. The same small
// requests, one at a time, to `mcpkit serve examples/docs` directly and through
// `mcpkit bridge --profile passthrough`, in interleaved rounds; p50/p99 of each and the
// difference of the p50s (goal: <= 1 ms).
import { fileURLToPath } from 'node:url';

export const BRIDGE = { goalMs: 1, perRound: 500 };

const REQUESTS = [
  ['resources/read', { uri: 'file:///data/defaults.json' }],
  ['tools/list', {}],
  ['tools/call', { name: 'read', arguments: { path: 'notes/security.md' } }],
];

const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** `{ n, rounds }`: requests per round and rounds; returns the cell (kind 'bridge'). */
export async function runBridgeLatency({ n = BRIDGE.perRound, rounds = 4 } = {}) {
  const dist = new URL('../../dist/', import.meta.url);
  const { McpClient } = await import(new URL('client/index.js', dist).href);
  const { StdioClientTransport } = await import(
    new URL('transports/stdio/client/index.js', dist).href
  );
  const cli = fileURLToPath(new URL('cli/main.js', dist));
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const serve = [cli, 'serve', 'examples/docs', '--stdio', '--quiet', '--no-watch'];
  const targets = {
    direct: serve,
    bridge: [cli, 'bridge', '--profile', 'passthrough', '--', process.execPath, ...serve],
  };
  const open = async (args) =>
    new McpClient({
      transport: new StdioClientTransport({
        command: process.execPath,
        args,
        cwd: root,
        stderr: 'ignore',
      }),
      cache: false,
      era: 'modern',
    }).connect();
  const round = async (client, samples) => {
    for (let i = 0; i < n; i++) {
      const [method, params] = REQUESTS[i % REQUESTS.length];
      const start = process.hrtime.bigint();
      await client.request(method, params);
      samples?.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  };
  const clients = {};
  for (const [name, args] of Object.entries(targets)) clients[name] = await open(args);
  const samples = { direct: [], bridge: [] };
  try {
    for (const name of Object.keys(clients)) await round(clients[name]); // warm-up
    for (let r = 0; r < rounds; r++)
      for (const name of Object.keys(clients)) await round(clients[name], samples[name]);
  } finally {
    await Promise.all(Object.values(clients).map((c) => c.close()));
  }
  const rows = Object.entries(samples).map(([target, s]) => {
    const sorted = [...s].sort((a, b) => a - b);
    return { target, requests: s.length, p50_ms: pct(sorted, 50), p99_ms: pct(sorted, 99) };
  });
  const addedP50Ms = rows[1].p50_ms - rows[0].p50_ms;
  return {
    kind: 'bridge',
    title: 'mcpkit bridge added latency per request (stdio, small results)',
    rows,
    addedP50Ms,
    verdict: addedP50Ms <= BRIDGE.goalMs ? 'MET' : 'FAILED',
  };
}

/** The cell as lines for the console. */
export function bridgeTable(cell) {
  const lines = [cell.title, 'target   requests  p50 ms   p99 ms'];
  for (const r of cell.rows)
    lines.push(
      `${r.target.padEnd(8)} ${String(r.requests).padStart(8)}  ${r.p50_ms.toFixed(3).padStart(7)}  ${r.p99_ms.toFixed(3).padStart(7)}`,
    );
  lines.push(
    `bridge added p50: ${cell.addedP50Ms.toFixed(3)} ms per request (goal <= ${BRIDGE.goalMs} ms): ${cell.verdict}`,
  );
  return lines.join('\n');
}
