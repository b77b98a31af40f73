/** A wait a stop gives up at a bound: a close or an exit never hangs on it. */

/** Resolves when `work` settles, or once `ms` passed; the timer holds the process open meanwhile. */
export async function waitAtMost(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}
