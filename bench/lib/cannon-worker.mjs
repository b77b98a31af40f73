// One autocannon worker of the HTTP load (used when wrk is not installed): receives its share of
// the load over IPC, cycles the requests on its connections (with `amount`: each connection its
// own share, until that many answers), counts answers that are not HTTP 200 with a valid length,
// and sends back its figures.
import autocannon from 'autocannon';

process.once('message', async ({ url, requests, lengths, connections, seconds, amount }) => {
  const valid = new Set(lengths);
  let bad = 0;
  let firstBad = '';
  const onResponse = (status, body) => {
    const n = Buffer.byteLength(body ?? '');
    if (status === 200 && valid.has(n)) return;
    bad++;
    if (!firstBad) firstBad = `${status} (${n} bytes) ${String(body).slice(0, 300)}`;
  };
  const toRequest = (q) => ({ method: 'POST', headers: q.headers, body: q.body, onResponse });
  // `amount` (each request once): every connection gets its own share, so that they do not all
  // start at the first request; the run stops at the total (a fast connection may repeat a few).
  const shares = Array.from({ length: connections }, (_, c) =>
    requests.filter((_, i) => i % connections === c).map(toRequest),
  );
  let next = 0;
  const setupClient = amount
    ? (client) => client.setRequests(shares[next++ % connections])
    : undefined;
  const r = await autocannon({
    ...(setupClient ? { setupClient } : {}),
    url,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    timeout: 10,
    requests: requests.map(toRequest),
  });
  process.send(
    {
      requests: r.requests.total,
      seconds: r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      bad: bad + r.non2xx + r.errors + r.timeouts,
      firstBad:
        firstBad || (r.errors || r.timeouts ? `errors ${r.errors}, timeouts ${r.timeouts}` : ''),
    },
    () => process.exit(0),
  );
});
