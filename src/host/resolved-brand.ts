/**
 * Which objects the resolver made. Context assembly must not take a server's block for a resolved
 * one because it carries a `block` or an `outcome` field: only entries marked here count as resolved.
 */
const RESOLVED = new WeakSet<object>();

/** Marks `entry` as the resolver's (or a test's stand-in for it) and returns it. */
export function resolvedEntry<T extends object>(entry: T): T {
  RESOLVED.add(entry);
  return entry;
}

export function isResolvedEntry(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && RESOLVED.has(entry);
}
