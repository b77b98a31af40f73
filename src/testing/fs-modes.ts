// Test support only: not part of the mcpkit package (excluded from the build and not published).
/**
 * The provider's file system as the guard suites run it: node:fs/promises (or `base`), every
 * call seen first by hooks. One mode today; the suites keep iterating FS_MODES so that another
 * way of running the reads (a worker pool) is held to the same checks.
 */
import { nodeFs, type ProviderFs } from '../providers/filesystem/fs-types.js';

export const FS_MODES = ['async'] as const;
export type FsMode = (typeof FS_MODES)[number];

/** Called before each call of that name, with its path. */
export interface FsHooks {
  realpath?(path: string): void;
  stat?(path: string): void;
  open?(path: string): void;
}

/** The file system of `mode` (over `base` when given), every call seen first by `hooks`. */
export function hookedFs(_mode: FsMode, hooks: FsHooks = {}, base?: ProviderFs): ProviderFs {
  const from = base ?? nodeFs;
  return {
    ...from,
    realpath: (p) => (hooks.realpath?.(p), from.realpath(p)),
    stat: (p) => (hooks.stat?.(p), from.stat(p)),
    open: (p, flags) => (hooks.open?.(p), from.open(p, flags)),
  };
}
