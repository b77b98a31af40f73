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
