// Case D: the client side. The mcpkit client and the official SDK v2 client, each in its own child
// process (bench/clients/), read the 1 KiB file of `mcpkit serve` (bench/servers/serve-counted.mjs:
// the CLI plus a count of answered reads) with the client cache off: one after the other and with
// a window in flight, over Streamable HTTP (both clients against one server) and over stdio (each
// client spawns the server, as a host does). Each client measures its own CPU per request; every
// round, the server's count of answered reads must equal the client's count of completed ones.
// A bare loop (bench/clients/bare.mjs, no library) runs beside them as the floor: the CPU any Node
// process spends to move these bytes, so a client's own cost is what it spends above that floor.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { answerCounter } from './answered.mjs';
import { makeFolder } from './client-payload.mjs';
import { HTTP_PATH } from './payload.mjs';
import { startChild, startHttpChild, stopChild } from './children.mjs';

const SERVE = new URL('../servers/serve-counted.mjs', import.meta.url);
const CLIENTS = {
  bare: new URL('../clients/bare.mjs', import.meta.url),
  sdk: new URL('../clients/sdk.mjs', import.meta.url),
  mcpkit: new URL('../clients/mcpkit.mjs', import.meta.url),
};
export const CLIENT = {
  /** Target: mcpkit's client CPU per request, above the bare floor, at most this fraction of the SDK client's. */
  cpuGoal: 0.5,
  transports: ['http', 'stdio'],
  modes: [
    { key: 'sequential', label: () => 'sequential', inflight: () => 1 },
    { key: 'inflight', label: (o) => `${o.connections} in flight`, inflight: (o) => o.connections },
  ],
};

const indent = (text) => '  ' + text.replace(/\n/g, '\n  ');

/** Starts one client child and resolves once it is ready for orders (`call(op, args)`). */
async function startClient(name) {
  const child = startChild(CLIENTS[name], [], { ipc: true });
  child.stdout.resume();
  const waiting = new Map();
  let nextId = 0;
  const gone = (why) => {
    for (const w of waiting.values())
      w.reject(new Error(`${name} client ${why}\n${child.stderrTail}`));
    waiting.clear();
  };
  child.once('exit', (code, sig) => gone(`exited (code ${code}, signal ${sig})`));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} client: not ready in 15 s`)), 15_000);
    waiting.set(0, {
      resolve: () => (clearTimeout(timer), resolve()),
      reject: (e) => (clearTimeout(timer), reject(e)),
    });
    child.on('message', (m) => {
      const id = m.ready ? 0 : m.id;
      const w = waiting.get(id);
      if (!w) return;
      waiting.delete(id);
      if (m.ready || m.ok) w.resolve(m);
      else w.reject(new Error(m.error));
    });
  });
  const call = (op, args = {}, timeoutMs = 120_000) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${name} client: ${op} unanswered in ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (m) => (clearTimeout(timer), resolve(m)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      child.send({ id, op, ...args });
    });
  return { child, call };
}

/** Keeps, per figure, the best of the rounds: most req/s (with its latencies), least CPU. */
function keepBest(prev, r) {
  const rounds = [...(prev?.rounds ?? []), r];
  const fastest = rounds.reduce((a, b) => (b.reqPerSec > a.reqPerSec ? b : a));
  return {
    reqPerSec: fastest.reqPerSec,
    p50: fastest.p50,
    p99: fastest.p99,
    cpuUsPerReq: Math.min(...rounds.map((x) => x.cpuUsPerReq)),
    requests: rounds.reduce((s, x) => s + x.requests, 0),
    answered: rounds.reduce((s, x) => s + x.answered, 0),
    rounds,
  };
}

/** Both clients (those selected) over one transport; fills `targets["<transport> <mode> <client>"]`. */
async function runTransport(transport, names, opts, dir, targets) {
  const key = (mode, name) => `${transport} ${mode.key} ${name}`;
  const failAll = (name, message) => {
    for (const mode of CLIENT.modes) targets[key(mode, name)] = { error: message };
  };
  const live = new Map();
  let server;
  let spec;
  let serverCount;
  try {
    if (transport === 'http') {
      const args = ['serve', dir, '--http', '127.0.0.1:0', '--quiet'];
      const { child, port } = await startHttpChild(SERVE, 15_000, args);
      server = child;
      const counter = answerCounter(child.pid);
      child.stderr.on('data', counter.feed);
      serverCount = () => counter.query();
      spec = { transport, url: `http://127.0.0.1:${port}${HTTP_PATH}` };
    } else {
      const args = [fileURLToPath(SERVE), 'serve', dir, '--stdio', '--quiet'];
      spec = { transport, command: process.execPath, args };
    }
    for (const name of names) {
      let client;
      try {
        client = await startClient(name);
        const { describe } = await client.call('open', { spec }, 30_000);
        console.log(`[client] ${transport} ${name}: ${describe}; warming up`);
        for (const mode of CLIENT.modes) {
          const seconds = opts.warmup / CLIENT.modes.length;
          const r = await client.call('run', { seconds, inflight: mode.inflight(opts) });
          if (r.failed) throw new Error(`warm-up: ${r.failed} failed reads; first:\n${r.error}`);
        }
        live.set(name, client);
      } catch (err) {
        if (client) await stopChild(client.child);
        failAll(name, err.message);
        console.log(`[client] ${transport} ${name}: FAILED\n${indent(err.message)}`);
      }
    }
    // The server's count: the shared HTTP server's, or the client's own stdio server's.
    const countOf = async (client) =>
      serverCount ? serverCount() : (await client.call('count')).answered;
    const seconds = opts.duration / (opts.repeat * CLIENT.modes.length);
    for (let round = 1; round <= opts.repeat; round++) {
      const order = round % 2 ? [...live.keys()] : [...live.keys()].reverse();
      const line = [];
      for (const mode of CLIENT.modes) {
        for (const name of order) {
          const client = live.get(name);
          if (!client || targets[key(mode, name)]?.error) continue;
          try {
            const before = await countOf(client);
            const r = await client.call('run', { seconds, inflight: mode.inflight(opts) });
            const after = await countOf(client);
            if (r.failed) throw new Error(`${r.failed} failed reads; first:\n${r.error}`);
            if (r.requests === 0) throw new Error('no read completed');
            const answered = after - before;
            if (answered !== r.requests) {
              throw new Error(
                `COUNT MISMATCH: the server answered ${answered} resources/read, ` +
                  `the client completed ${r.requests}`,
              );
            }
            targets[key(mode, name)] = keepBest(targets[key(mode, name)], { ...r, answered });
            line.push(
              `${mode.key} ${name} ${Math.round(r.reqPerSec)}/s ${r.cpuUsPerReq.toFixed(0)}us`,
            );
          } catch (err) {
            targets[key(mode, name)] = { error: err.message };
            console.log(
              `[client] ${key(mode, name)}: FAILED in round ${round}\n${indent(err.message)}`,
            );
          }
        }
      }
      console.log(`[client] ${transport} round ${round}/${opts.repeat}: ${line.join(', ')}`);
    }
  } catch (err) {
    for (const name of names) failAll(name, err.message);
    console.log(`[client] ${transport}: FAILED\n${indent(err.message)}`);
  } finally {
    for (const client of live.values()) {
      await client.call('close', {}, 10_000).catch(() => undefined);
      await stopChild(client.child);
    }
    if (server) await stopChild(server);
  }
}

/** Runs case D for the selected clients (`sdk`, `mcpkit` in opts.targets). */
export async function runClientCase(opts, missing) {
  const names = opts.targets.filter((t) => t in CLIENTS);
  const targets = {};
  const dir = makeFolder();
  try {
    if (missing.length) {
      // Both sides need the build: the server is mcpkit serve, for the SDK client too.
      const why = `${missing.join(', ')} missing (run npm run build)`;
      for (const transport of CLIENT.transports)
        for (const mode of CLIENT.modes)
          for (const name of names) targets[`${transport} ${mode.key} ${name}`] = { skipped: why };
      console.log(`[client] skipped: ${why}`);
    } else {
      for (const transport of CLIENT.transports)
        await runTransport(transport, names, opts, dir, targets);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const perRun = opts.duration / (opts.repeat * CLIENT.modes.length);
  return {
    title:
      `D. Clients: 1 KiB resources/read of mcpkit serve, client cache off, each client in its own ` +
      `process; best of ${opts.repeat} rounds of ${perRun.toFixed(1)} s per client and mode ` +
      `(sequential, ${opts.connections} in flight) after ${opts.warmup} s warm-up`,
    kind: 'client',
    names,
    targets,
  };
}
