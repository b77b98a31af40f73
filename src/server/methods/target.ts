import { canonicalJson } from '../request-state.js';

/**
 * What a requestState is bound to: replaying it for other arguments, another target or another
 * authenticated caller fails verification.
 */
export function boundTarget(
  method: string,
  target: unknown,
  args: unknown,
  authInfo: unknown,
): string {
  let caller: string;
  try {
    caller = canonicalJson(authInfo ?? null);
  } catch {
    caller = String(authInfo); // cyclic: auth info should be plain data
  }
  return `${method}\n${String(target)}\n${canonicalJson(args ?? {})}\n${caller}`;
}
