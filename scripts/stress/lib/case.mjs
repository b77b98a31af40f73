// What a case gets (servers, folders, a cleanup stack) and the figure it hands back.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PROBE_FILE, PROBE_TEXT, removeDir, tempDir } from './files.mjs';
import { collectAndMeasure } from './inspector.mjs';
import { Probe } from './probe.mjs';
import { DEFAULT_RSS_TARGET } from './report.mjs';
import { memOf, settledRss } from './rss.mjs';
import { isRunning, startHttpServer, startStdioServer, stopServer } from './server.mjs';
import { Tally } from './tally.mjs';

export function createContext() {
  const cleanups = [];
  const heapBefore = new Map();
  // The clients share this process: its own event-loop lag is part of every latency measured.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  cleanups.push(() => lag.disable());
  return {
    /** RSS before the load (the baseline of the target); then the V8 heap after a full GC. */
    async baseline(server) {
      const rss = memOf(server.pid).rss;
      heapBefore.set(server, await heapAfterGc(server));
      return rss;
    },
    /** Call when the hostile load starts: the lag reported is from then on. */
    loadStarts: () => lag.reset(),
    /**
     * The usual start of a case: the probe warmed up, the baseline taken, then the load and the
     * probe's timing begin. Resolves with the baseline RSS.
     */
    async startLoad(server, probe) {
      await probe.warm();
      const before = await this.baseline(server);
      this.loadStarts();
      probe.start();
      return before;
    },
    /** The case's figure, with this process's worst event-loop lag so far in the notes. */
    figure: (args) =>
      figure({ ...args, lagMs: lag.max / 1e6, heapBefore: heapBefore.get(args.server) ?? null }),
    /** Runs at the end of the case, last registered first, even when the case threw. */
    defer(fn) {
      cleanups.push(fn);
    },
    tempDir(label) {
      const dir = tempDir(label);
      cleanups.push(() => removeDir(dir));
      return dir;
    },
    async http(dir, flags) {
      const server = await startHttpServer(dir, flags);
      cleanups.push(() => stopServer(server));
      return server;
    },
    stdio(dir, flags) {
      const server = startStdioServer(dir, flags);
      cleanups.push(() => stopServer(server));
      return server;
    },
    tally: () => new Tally(),
    /** The well-behaved client of an HTTP server, reading the probe file; stopped at the end. */
    probe(server, tally) {
      const probe = new Probe(server.url, { file: PROBE_FILE, text: PROBE_TEXT, tally });
      cleanups.push(() => probe.stop());
      return probe;
    },
    async cleanup() {
      for (const fn of cleanups.reverse()) {
        try {
          await fn();
        } catch (error) {
          console.error(`  cleanup: ${error.message}`);
        }
      }
    },
  };
}

/**
 * The figure of one case, taken once its hostile clients have left: the server's peak RSS
 * (VmHWM), its RSS before the load and after settling, and what the clients counted.
 * `slowestMs` is null where no well-behaved client can run beside the hostile one; `rss` is the
 * row's memory target (report.mjs), and its `settle` says how long RSS may take to come back.
 */
async function figure(args) {
  const { label, scale, server, tally, before, slowestMs, lagMs, heapBefore, notes = [] } = args;
  const { rss = DEFAULT_RSS_TARGET } = args;
  const peak = memOf(server.pid)?.hwm ?? null;
  const settle = rss.settle ?? DEFAULT_RSS_TARGET.settle;
  const after = await settledRss(server.pid, before, {
    withinBytes: settle.withinBytes,
    maxMs: settle.ms,
  });
  // Diagnostic only, after the figure: what a full GC gives back, and the heap still in use.
  const heapAfter = isRunning(server) ? await heapAfterGc(server) : null;
  const afterGc = heapAfter === null ? null : (memOf(server.pid)?.rss ?? null);
  const alive = isRunning(server);
  const { requests, answers, errors, wrong, lost } = tally;
  const all = [...notes];
  if (!alive) {
    const { exitCode, signalCode } = server.child;
    all.push(
      `SERVER DIED (code ${exitCode}, signal ${signalCode}): ${server.child.stderrTail.slice(-300)}`,
    );
  }
  if (tally.summary()) all.push(tally.summary());
  all.push(`stress-process event-loop lag at most ${Math.round(lagMs)} ms`);
  return {
    label,
    scale,
    options: server.flags.used,
    unlisted: server.flags.missing,
    requests,
    answers,
    errors,
    wrong,
    lost,
    before,
    peak,
    after,
    afterGc,
    heapBefore,
    heapAfter,
    slowestMs,
    alive,
    rss,
    notes: all,
  };
}

/** The server's V8 heap in use after a full GC, or null without an inspector. */
async function heapAfterGc(server) {
  try {
    return await collectAndMeasure(server.child.inspector);
  } catch {
    return null;
  }
}
