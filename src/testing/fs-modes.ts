// Test support only: not part of the mcpkit package (excluded from the build and not published).
/**
 * The provider's file system in each way its reads run: `async`, node:fs/promises with every
 * call awaited (steps.ts: runAsync), and `sync`, the default file system, whose reads of small
 * files run whole in one turn through its synchronous calls (runSync). Tests of the guards run
 * in both, so that each runner is held to the same checks.
 */
import { nodeFs, type ProviderFs, type SyncFs } from '../providers/filesystem/fs-types.js';
import { quickFs } from '../providers/filesystem/quick-fs.js';

export const FS_MODES = ['async', 'sync'] as const;
export type FsMode = (typeof FS_MODES)[number];

/** Called before each call of that name, asynchronous or synchronous, with its path. */
export interface FsHooks {
  realpath?(path: string): void;
  stat?(path: string): void;
  open?(path: string): void;
}

/** The file system of `mode` (over `base` when given), every call seen first by `hooks`. */
export function hookedFs(mode: FsMode, hooks: FsHooks = {}, base?: ProviderFs): ProviderFs {
  const from = base ?? (mode === 'sync' ? quickFs : nodeFs);
  const fs: ProviderFs = {
    ...from,
    realpath: (p) => (hooks.realpath?.(p), from.realpath(p)),
    stat: (p) => (hooks.stat?.(p), from.stat(p)),
    open: (p, flags) => (hooks.open?.(p), from.open(p, flags)),
  };
  const sync = mode === 'sync' ? from.sync : undefined;
  if (!sync) {
    const { sync: _dropped, ...rest } = fs;
    return rest;
  }
  const hooked: SyncFs = {
    ...sync,
    realpath: (p) => (hooks.realpath?.(p), sync.realpath(p)),
    stat: (p) => (hooks.stat?.(p), sync.stat(p)),
    open: (p, flags) => (hooks.open?.(p), sync.open(p, flags)),
  };
  return { ...fs, sync: hooked };
}
