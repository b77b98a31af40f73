// Small timing helpers; every wait in the run is bounded by one of these.
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rejects with `what` after `ms` unless `promise` settles first. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no end within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `ready()` every `everyMs` until it is true or `ms` passed; returns its last value. */
export async function waitFor(ready, ms, everyMs = 50) {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() >= deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

/**
 * Runs `work(i)` from `workers` loops until `count` calls started or `ms` passed, whichever is
 * first. Resolves with the number of calls made.
 */
export async function pool({ workers, count, ms }, work) {
  const deadline = Date.now() + ms;
  let started = 0;
  const loop = async () => {
    while (started < count && Date.now() < deadline) await work(started++);
  };
  await Promise.all(Array.from({ length: workers }, loop));
  return started;
}
