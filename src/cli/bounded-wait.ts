/** A wait the command's stop gives up at a bound: an exit never hangs on it. */

/** Resolves when `work` settles, or once `ms` passed; the timer holds the process open meanwhile. */
export async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}
