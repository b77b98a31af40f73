/** Full garbage collections for tests that check what is kept alive (and what is not). */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** A full collection: node's own `gc` when run with --expose-gc, else V8's, exposed at run time. */
export function fullGc(): void {
  if (!gc) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
  }
  gc();
}

/**
 * The targets of `refs` still alive once the current job has ended (a WeakRef holds its target
 * until then) and full collections have run.
 */
export async function stillAlive<T extends object>(refs: readonly WeakRef<T>[]): Promise<T[]> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    fullGc();
  }
  return refs.map((ref) => ref.deref()).filter((target): target is T => target !== undefined);
}
