/** Full garbage collections for tests that check what is kept alive (and what is not). */
import { v8Collect } from '../cli/idle-compaction.js';

let gc: (() => void) | undefined;

/** A full collection (V8's own `gc`, exposed at run time as `mcpkit serve` does). */
export function fullGc(): void {
  (gc ??= v8Collect())();
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
