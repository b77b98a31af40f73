// Side-by-side table, req/s ratios and the verdict for one case.

const num = (v, digits = 0) =>
  v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Ratios of req/s between targets (null when one side is missing). */
export function ratios(targets) {
  const rps = (name) => targets[name]?.reqPerSec;
  const ratio = (a, b) => (rps(a) && rps(b) ? rps(a) / rps(b) : null);
  return {
    'mcpkit/bare': ratio('mcpkit', 'bare'),
    'mcpkit/sdk': ratio('mcpkit', 'sdk'),
    'sdk/bare': ratio('sdk', 'bare'),
  };
}

/** PASS/FAIL of mcpkit against `goal` (a fraction of bare's req/s). */
export function verdict(targets, r, goal) {
  const want = `target: mcpkit >= ${goal * 100}% of bare`;
  const m = targets.mcpkit;
  if (!m || m.skipped)
    return `NOT MEASURED: mcpkit skipped (${m?.skipped ?? 'not selected'}); ${want}`;
  if (m.error) return `FAIL: mcpkit did not run correctly; ${want}`;
  if (r['mcpkit/bare'] === null) return `NOT MEASURED: no bare baseline; ${want}`;
  const pct = (r['mcpkit/bare'] * 100).toFixed(1);
  return `${r['mcpkit/bare'] >= goal ? 'PASS' : 'FAIL'}: mcpkit reaches ${pct}% of bare (${want})`;
}

/** The printable block for one case. */
export function table(title, targets, r, verdictLine) {
  const head = `${'target'.padEnd(8)}${'req/s'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}`;
  const rows = [`${head}${'server CPU us/req'.padStart(20)}`];
  for (const [name, t] of Object.entries(targets)) {
    if (t.skipped) rows.push(`${name.padEnd(8)}  skipped: ${t.skipped}`);
    else if (t.error) rows.push(`${name.padEnd(8)}  FAILED: ${t.error.split('\n')[0]}`);
    else {
      const cpu = t.cpuUsPerReq === null ? 'n/a' : num(t.cpuUsPerReq, 1);
      rows.push(
        `${name.padEnd(8)}${num(t.reqPerSec).padStart(10)}${num(t.p50, 2).padStart(10)}${num(t.p99, 2).padStart(10)}${cpu.padStart(20)}`,
      );
    }
  }
  const show = (k) => (r[k] === null ? 'n/a' : `${r[k].toFixed(3)}x`);
  const ratioLine = `req/s ratios: mcpkit/bare ${show('mcpkit/bare')}   mcpkit/sdk ${show('mcpkit/sdk')}   sdk/bare ${show('sdk/bare')}`;
  return [title, ...rows, ratioLine, `verdict: ${verdictLine}`].join('\n');
}

const mib = (bytes) => bytes / (1024 * 1024);
/** A signed MiB figure: a burst that ended below idle (a collection ran) prints as such. */
const signed = (bytes) => `${bytes >= 0 ? '+' : ''}${num(mib(bytes), 1)}`;

/** The verdict lines of the large-resources case: the burst's peak, then the walk's. */
export function largeVerdicts(c, goals) {
  const m = c.targets.mcpkit;
  const sdk = c.targets.sdk;
  const streamed = c.targets.streamed;
  const beside =
    (sdk?.overIdle === undefined ? '' : `; SDK ${signed(sdk.overIdle)} MiB`) +
    (streamed?.overIdle === undefined
      ? ''
      : `; streamed, nothing cached (--cache-bytes 0): ${signed(streamed.overIdle)} MiB`);
  const burstWant = `target: mcpkit <= ${mib(goals.peakGoal)} MiB over idle`;
  const burst =
    !m || m.skipped
      ? `NOT MEASURED: mcpkit skipped (${m?.skipped ?? 'not selected'}); ${burstWant}`
      : m.error
        ? `FAIL: mcpkit did not run correctly; ${burstWant}`
        : `${m.overIdle <= goals.peakGoal ? 'PASS' : 'FAIL'}: mcpkit peak RSS ${signed(m.overIdle)} MiB over idle (${burstWant})${beside}`;
  const w = c.walk;
  const walkWant = `target: RSS never more than ${mib(goals.walkGoal)} MiB over idle`;
  const walk = !w
    ? `NOT MEASURED: no walk (mcpkit not selected or not built); ${walkWant}`
    : w.error
      ? `FAIL: the walk did not complete; ${walkWant}`
      : `${w.overIdle <= goals.walkGoal ? 'PASS' : 'FAIL'}: 1 GiB walk RSS at most ${signed(w.overIdle)} MiB over idle (${walkWant}), ${num(w.seconds, 1)} s`;
  return [burst, walk];
}

/** The printable block of the large-resources case. */
export function largeTable(c, goals) {
  const rows = [
    `${'target'.padEnd(8)}${'idle RSS MiB'.padStart(14)}${'peak over idle MiB'.padStart(20)}   each burst: MiB over idle, seconds`,
  ];
  for (const [name, t] of Object.entries(c.targets)) {
    if (name === 'mcpkit walk') continue;
    if (t.skipped) rows.push(`${name.padEnd(8)}  skipped: ${t.skipped}`);
    else if (t.error) rows.push(`${name.padEnd(8)}  FAILED: ${t.error.split('\n')[0]}`);
    else {
      const rounds = t.rounds
        .map((r) => `${signed(r.overIdle)} in ${num(r.seconds, 2)} s`)
        .join(', ');
      const peak = signed(t.overIdle);
      rows.push(
        `${name.padEnd(8)}${num(mib(t.idleRss), 1).padStart(14)}${peak.padStart(20)}   ${rounds}`,
      );
    }
  }
  const w = c.walk;
  if (w && !w.error) {
    rows.push(
      `1 GiB walk (mcpkit): ${w.parts} parts of ${num(mib(w.partBytes), 2)} MiB in ${num(w.seconds, 1)} s ` +
        `(${num(1024 / w.seconds, 0)} MiB/s, client checks included); idle RSS ${num(mib(w.idleRss), 1)} MiB, ` +
        `peak ${signed(w.overIdle)} MiB over idle (peaks from ${w.peakFrom})`,
    );
  } else if (w?.error) rows.push(`1 GiB walk (mcpkit): FAILED: ${w.error.split('\n')[0]}`);
  const verdicts = largeVerdicts(c, goals).map((v) => `verdict: ${v}`);
  return [c.title, ...rows, ...verdicts].join('\n');
}

/**
 * Case D, per (transport, mode): mcpkit's client against the SDK's. `cpu` is the raw ratio of CPU per
 * request; `own` the ratio of what each spends above the bare loop's floor (null without a floor);
 * `floorRatio` the raw ratio a client costing nothing above the floor would reach.
 */
export function clientPairs(c, spec, opts) {
  const pairs = [];
  for (const transport of spec.transports) {
    for (const mode of spec.modes) {
      const at = (name) => c.targets[`${transport} ${mode.key} ${name}`];
      const m = at('mcpkit');
      const s = at('sdk');
      const b = at('bare');
      const ok = (t) => t && !t.error && !t.skipped;
      const both = ok(m) && ok(s);
      const floored = both && ok(b) && s.cpuUsPerReq > b.cpuUsPerReq;
      pairs.push({
        transport,
        mode: mode.key,
        label: `${transport}, ${mode.label(opts)}`,
        cpu: both ? m.cpuUsPerReq / s.cpuUsPerReq : null,
        rps: both ? m.reqPerSec / s.reqPerSec : null,
        floor: ok(b) ? b.cpuUsPerReq : null,
        own: floored
          ? Math.max(0, m.cpuUsPerReq - b.cpuUsPerReq) / (s.cpuUsPerReq - b.cpuUsPerReq)
          : null,
        floorRatio: floored ? b.cpuUsPerReq / s.cpuUsPerReq : null,
        failed: Boolean(m?.error || s?.error || b?.error),
      });
    }
  }
  return pairs;
}

/** The figure the target is judged on: the own-cost ratio when the floor ran, else the raw one. */
const judged = (p) => p.own ?? p.cpu;

/**
 * PASS/FAIL of case D: in every (transport, mode), mcpkit's CPU per request above the bare floor at
 * most `goal` of the SDK client's (the raw ratio when the floor was not measured).
 */
export function clientVerdict(c, pairs, goal) {
  const floored = pairs.every((p) => p.own !== null);
  const want = floored
    ? `target: mcpkit client's own CPU/request (above the bare loop) <= ${goal}x the SDK client's`
    : `target: mcpkit client CPU/request <= ${goal}x the SDK client's (no bare floor measured)`;
  if (pairs.some((p) => p.failed)) return `FAIL: a client did not run correctly; ${want}`;
  const measured = pairs.filter((p) => p.cpu !== null);
  if (measured.length === 0) return `NOT MEASURED: needs both clients (sdk, mcpkit); ${want}`;
  const worst = measured.reduce((a, b) => (judged(b) > judged(a) ? b : a));
  const passed = measured.filter((p) => judged(p) <= goal).length;
  const all = passed === measured.length && measured.length === pairs.length;
  const raw = measured.filter((p) => p.cpu <= goal).length;
  return (
    `${all ? 'PASS' : 'FAIL'}: ${passed}/${pairs.length} within target; worst ` +
    `${judged(worst).toFixed(2)}x (${worst.label}) (${want}); raw CPU/request ` +
    `<= ${goal}x in ${raw}/${pairs.length}`
  );
}

/** The printable block of case D. */
export function clientTable(c, spec, opts) {
  const pairs = clientPairs(c, spec, opts);
  const rows = [
    `${'transport, mode'.padEnd(22)}${'client'.padEnd(8)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}` +
      `${'p99 ms'.padStart(9)}${'client CPU us/req'.padStart(19)}   server answered = client's count`,
  ];
  for (const p of pairs) {
    for (const name of c.names) {
      const t = c.targets[`${p.transport} ${p.mode} ${name}`];
      const head = `${(name === c.names[0] ? p.label : '').padEnd(22)}${name.padEnd(8)}`;
      if (!t) continue;
      if (t.skipped) rows.push(`${head}  skipped: ${t.skipped}`);
      else if (t.error) rows.push(`${head}  FAILED: ${t.error.split('\n')[0]}`);
      else {
        rows.push(
          `${head}${num(t.reqPerSec).padStart(9)}${num(t.p50, 2).padStart(9)}${num(t.p99, 2).padStart(9)}` +
            `${num(t.cpuUsPerReq, 1).padStart(19)}   yes, ${num(t.answered)} = ${num(t.requests)}`,
        );
      }
    }
    if (p.cpu !== null) {
      const mark = judged(p) <= spec.cpuGoal ? 'PASS' : 'FAIL';
      rows.push(
        p.own === null
          ? `${''.padEnd(22)}mcpkit/sdk: CPU/req ${p.cpu.toFixed(2)}x ${mark}, req/s ${p.rps.toFixed(2)}x`
          : `${''.padEnd(22)}mcpkit/sdk: own CPU/req above bare ${p.own.toFixed(2)}x ${mark}; ` +
              `raw ${p.cpu.toFixed(2)}x (bare/sdk ${p.floorRatio.toFixed(2)}x); req/s ${p.rps.toFixed(2)}x`,
      );
    }
  }
  return [c.title, ...rows, `verdict: ${clientVerdict(c, pairs, spec.cpuGoal)}`].join('\n');
}
