import type { Era } from '../../protocol/versions.js';
import type { ServerCore } from '../core.js';
import { paginate } from '../pagination.js';
import type { MethodEnv, Params, Result } from './types.js';

/** Checked when the server was made (pageSizeOf). */
export function pageSize(core: ServerCore): number {
  return core.options.pageSize ?? 100;
}

/** A list method: one page of `items` under `field`, with the next page's cursor. */
export function lister<T>(
  field: string,
  method: string,
  items: (
    core: ServerCore,
    era: Era,
    ctx: MethodEnv['ctx'],
  ) => readonly T[] | Promise<readonly T[]>,
  key: (item: T) => string,
) {
  return async (params: Params, { core, ctx }: MethodEnv): Promise<Result> => {
    const page = paginate(
      await items(core, ctx.era, ctx),
      key,
      params['cursor'] as string | undefined,
      pageSize(core),
      method,
    );
    const result: Result = page.nextCursor
      ? { [field]: page.items, nextCursor: page.nextCursor }
      : { [field]: page.items };
    // Filtered by the caller's scopes: an answer for this caller only, never a shared one.
    if (ctx.era === 'modern' && ctx.auth !== undefined && core.hasScopedEntries())
      result['cacheScope'] = 'private';
    return result;
  };
}
