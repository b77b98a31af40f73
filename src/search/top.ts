/** Choosing the best few of many scored items. */

/**
 * The best `limit` of `items` by `scores` (higher first, then lower id), without sorting all of
 * them: past a few times `limit`, the scores alone are sorted (a typed array, natively) to find
 * the cut, and only the items at or above it are ordered.
 */
export function topBy(items: ArrayLike<number>, limit: number, scores: Float64Array): number[] {
  if (limit <= 0) return [];
  const order = (a: number, b: number): number => scores[b]! - scores[a]! || a - b;
  if (items.length <= limit * 4) return Array.from(items).sort(order).slice(0, limit);
  const values = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) values[i] = scores[items[i]!]!;
  values.sort();
  const cut = values[values.length - limit]!;
  const above: number[] = [];
  for (let i = 0; i < items.length; i++) if (scores[items[i]!]! >= cut) above.push(items[i]!);
  return above.sort(order).slice(0, limit);
}
