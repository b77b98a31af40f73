// One autocannon worker of the HTTP load (used when wrk is not installed): receives its share of
// the load over IPC, cycles the requests on its connections, counts answers that are not HTTP 200
// with a valid length, and sends back its figures.
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
  const r = await autocannon({
    url,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    timeout: 10,
    requests: requests.map((q) => ({
      method: 'POST',
      headers: q.headers,
      body: q.body,
      onResponse,
    })),
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
