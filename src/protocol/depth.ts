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
 * Stops at the first level past `limit`, so that neither depth nor a cycle (possible in memory,
 * never from JSON) can make it overflow or loop: it recurses at most `limit` frames deep (an
 * explicit stack for limits above 512), and visits each value at most once.
 *
 * @example
 * nestsDeeperThan({ a: { b: {} } }, 1); // true: {} is level 2
 */
export function nestsDeeperThan(root: unknown, limit: number): boolean {
  if (typeof root !== 'object' || root === null) return false;
  // Recursion as deep as the limit allows is safe and allocates nothing: the common case.
  if (limit <= RECURSION_SAFE_LIMIT) return deeper(root, 0, limit);
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

/** The field of a message nested deeper than `limit` (`params`, `result`, `error`), if any. */
export function deepField(
  message: { params?: unknown; result?: unknown; error?: unknown },
  limit: number,
): string | undefined {
  // Three tests, not a loop over a list of names: this runs for every message.
  if (nestsDeeperThan(message.params, limit)) return 'params';
  if (nestsDeeperThan(message.result, limit)) return 'result';
  if (nestsDeeperThan(message.error, limit)) return 'error';
  return undefined;
}

/** Limits up to which `deeper` may recurse (a frame per level, far from any stack limit). */
const RECURSION_SAFE_LIMIT = 512;

/** Whether a container at `level` holds one past `limit`; recursion bounded by `limit`. */
function deeper(container: object, level: number, limit: number): boolean {
  if (Array.isArray(container)) {
    for (const child of container) {
      if (typeof child === 'object' && child !== null) {
        if (level + 1 > limit || deeper(child, level + 1, limit)) return true;
      }
    }
    return false;
  }
  for (const key in container) {
    if (!Object.hasOwn(container, key)) continue;
    const child = (container as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) {
      if (level + 1 > limit || deeper(child, level + 1, limit)) return true;
    }
  }
  return false;
}

function childrenOf(container: object): unknown[] {
  return Array.isArray(container) ? container : Object.values(container);
}
