/**
 * A numeric option checked once: `fallback` when absent, else a safe integer from `min` to
 * `max`, or a RangeError naming `where` and the option.
 */
export function integerOption(
  where: string,
  name: string,
  value: number | undefined,
  fallback: number,
  min = 1,
  what = min === 1 ? 'a positive integer' : `an integer of at least ${min}`,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${where}: ${name} must be ${what}, got ${String(value)}`);
  }
  return value;
}
