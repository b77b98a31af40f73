/** The entries whose value is given (options are exact: an absent one keeps its default). */
export function defined<T extends Record<string, number | undefined>>(
  values: T,
): { [K in keyof T]?: number } {
  const out: { [K in keyof T]?: number } = {};
  for (const key of Object.keys(values) as Array<keyof T>) {
    const value = values[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
