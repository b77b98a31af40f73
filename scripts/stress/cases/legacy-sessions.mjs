// 6. Legacy sessions: thousands of 2025-11-25 initialize never deleted, then a new client.
import { PROBE_FILE, PROBE_TEXT, writeFiles } from '../lib/files.mjs';
import { clientAgent, post } from '../lib/http.mjs';
import { LEGACY, fileUri, initialize, textOf, toolNames } from '../lib/mcp.mjs';
import { pool } from '../lib/time.mjs';

const SESSIONS = 3000;
const WORKERS = 16;
const MAX_SESSIONS = 1000;

export const name = 'legacy-sessions';
export const scale = `${SESSIONS} 2025-11-25 initialize from ${WORKERS} connections, never deleted; then a new legacy client initializes and works`;

const BASE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A new legacy client end to end: initialize, initialized, tools/list, resources/read. */
async function legacyClient(url, tally) {
  const agent = clientAgent(1);
  const steps = [];
  const t0 = performance.now();
  try {
    tally.requests++;
    const init = await post(url, initialize(1), { headers: BASE, agent });
    const session = init.headers['mcp-session-id'];
    if (init.answer?.result?.protocolVersion !== LEGACY || !session) {
      tally.bad(`new client: initialize gave HTTP ${init.status} ${init.text.slice(0, 100)}`);
      return { ms: performance.now() - t0, steps: 'initialize failed' };
    }
    tally.answer();
    const headers = { ...BASE, 'mcp-session-id': session, 'mcp-protocol-version': LEGACY };
    const initialized = await post(
      url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { headers, agent },
    );
    steps.push(`initialized ${initialized.status}`);
    const calls = [
      [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }, (a) => toolNames(a)?.includes('search')],
      [
        { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: fileUri(PROBE_FILE) } },
        (a) => textOf(a) === PROBE_TEXT,
      ],
    ];
    for (const [message, ok] of calls) {
      tally.requests++;
      const res = await post(url, message, { headers, agent });
      steps.push(`${message.method} ${res.status}`);
      if (res.answer?.id === message.id && ok(res.answer)) tally.answer();
      else tally.bad(`new client ${message.method}: HTTP ${res.status} ${res.text.slice(0, 100)}`);
    }
  } catch (error) {
    tally.missing(`new client: ${error.message}`);
  } finally {
    agent.destroy();
  }
  return { ms: performance.now() - t0, steps: steps.join(', ') };
}

export async function run(ctx) {
  const dir = ctx.tempDir('sessions');
  await writeFiles(dir, { [PROBE_FILE]: PROBE_TEXT });
  const server = await ctx.http(dir, { '--max-sessions': MAX_SESSIONS, '--session-idle': '10m' });
  const tally = ctx.tally();
  const probe = ctx.probe(server, tally);
  const before = await ctx.startLoad(server, probe);
  const agent = clientAgent(WORKERS);
  ctx.defer(() => agent.destroy());
  const ids = new Set();
  let first;
  const statuses = {};
  const made = await pool({ workers: WORKERS, count: SESSIONS, ms: 60_000 }, async (i) => {
    tally.requests++;
    try {
      const res = await post(server.url, initialize(i + 1), { headers: BASE, agent });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const id = res.headers['mcp-session-id'];
      if (res.status === 503) return tally.error('initialize: 503');
      if (res.answer?.id !== i + 1 || res.answer.result?.protocolVersion !== LEGACY || !id)
        return tally.bad(`initialize ${i + 1}: HTTP ${res.status} ${res.text.slice(0, 100)}`);
      if (ids.has(id)) return tally.bad(`session id ${id} given twice`);
      ids.add(id);
      first ??= id;
      tally.answer();
    } catch (error) {
      tally.missing(`initialize: ${error.message}`);
    }
  });
  const { slowestMs } = await probe.stop();
  agent.destroy();
  const fresh = await legacyClient(server.url, tally);
  const old = await post(
    server.url,
    { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    {
      headers: { ...BASE, 'mcp-session-id': first, 'mcp-protocol-version': LEGACY },
    },
  );
  return ctx.figure({
    label: '6 legacy sessions',
    scale,
    server,
    tally,
    before,
    slowestMs: Math.max(slowestMs, fresh.ms),
    notes: [
      `${made} initialize: ${Object.entries(statuses)
        .map(([k, n]) => `HTTP ${k} x${n}`)
        .join(', ')}; ${ids.size} distinct session ids`,
      `the new legacy client: ${fresh.steps} in ${Math.round(fresh.ms)} ms; the first session now answers HTTP ${old.status}`,
    ],
  });
}
