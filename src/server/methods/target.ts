import { canonicalJson } from '../request-state.js';
import { callerKey, isAuthInfo } from '../auth-info.js';

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
  // Auth info is whatever an auth hook made: a cycle is marked, not fatal, so that two cyclic
  // callers still get different targets.
  const caller = isAuthInfo(authInfo)
    ? callerKey(authInfo)
    : canonicalJson(authInfo ?? null, 'mark');
  return `${method}\n${String(target)}\n${canonicalJson(args ?? {})}\n${caller}`;
}
