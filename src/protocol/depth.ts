/**
 * How deeply a parsed JSON value nests. V8's JSON.parse takes any depth, but every recursive
 * consumer after it (schema validators, canonical JSON, user code) overflows the stack somewhere
 * near 10k levels: the engine measures depth once, with an explicit stack, before any of them run.
 */

/** Nesting levels allowed below a request's `params` by default (`ServerOptions.maxDepth`). */
export const DEFAULT_MAX_DEPTH = 64;

/**
 * Whether `root` nests objects or arrays more than `limit` levels below itself. `root` is level
 * 0; an object or array directly inside it is level 1, one inside that level 2, and so on.
 * Scalars add no level: `{ a: { b: 1 } }` has one level below it, `{ a: [[1]] }` two.
 *
 * Iterative (never recursive) and stops at the first level past `limit`, so that neither depth
 * nor a cycle (possible in memory, never from JSON) can make it overflow or loop: the work is at
 * most one visit per value, and the stack holds at most `limit + 1` frames.
 *
 * @example
 * nestsDeeperThan({ a: { b: {} } }, 1); // true: {} is level 2
 */
export function nestsDeeperThan(root: unknown, limit: number): boolean {
  if (typeof root !== 'object' || root === null) return false;
  // Frame i lists the children of a container at level i; `next[i]` is the one to visit next.
  const frames: unknown[][] = [childrenOf(root)];
  const next: number[] = [0];
  while (frames.length > 0) {
    const top = frames.length - 1;
    const children = frames[top] as unknown[];
    const i = next[top] as number;
    if (i === children.length) {
      frames.pop();
      next.pop();
      continue;
    }
    next[top] = i + 1;
    const child = children[i];
    if (typeof child !== 'object' || child === null) continue;
    // `child` sits one level below the container of frame `top`: at level frames.length.
    if (frames.length > limit) return true;
    frames.push(childrenOf(child));
    next.push(0);
  }
  return false;
}

function childrenOf(container: object): unknown[] {
  return Array.isArray(container) ? container : Object.values(container);
}
