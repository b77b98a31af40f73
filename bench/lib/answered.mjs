// Asks a server started by bench/servers/serve-counted.mjs how many resources/read it answered:
// SIGUSR2 to its pid, then the next `answered <count>` line on its stderr.

/** `feed` gets the server's stderr (text chunks); `query()` resolves with the count. */
export function answerCounter(pid) {
  let pending = '';
  const waiters = [];
  return {
    feed(chunk) {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const m = /^answered (\d+)$/.exec(pending.slice(0, nl).trim());
        pending = pending.slice(nl + 1);
        if (m && waiters.length) waiters.shift()(Number(m[1]));
      }
      if (pending.length > 65536) pending = pending.slice(-1024);
    },
    query(timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(done), 1);
          reject(new Error(`the server (pid ${pid}) did not report its count in ${timeoutMs} ms`));
        }, timeoutMs);
        const done = (count) => {
          clearTimeout(timer);
          resolve(count);
        };
        waiters.push(done);
        try {
          process.kill(pid, 'SIGUSR2');
        } catch (err) {
          clearTimeout(timer);
          waiters.splice(waiters.indexOf(done), 1);
          reject(new Error(`cannot signal the server (pid ${pid}): ${err.message}`));
        }
      });
    },
  };
}
