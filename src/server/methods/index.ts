/** The method table: every request the server answers, by feature. Dispatch imports only this. */
import { completionMethods } from './completion.js';
import { discoverMethods } from './discover.js';
import { listenMethods } from './listen.js';
import { promptMethods } from './prompts.js';
import { resourceMethods } from './resources.js';
import { toolMethods } from './tools.js';
import type { MethodSpec } from './types.js';

/** Methods both eras share, plus the modern-only ones. */
export const METHODS: Readonly<Record<string, MethodSpec>> = {
  ...discoverMethods,
  ...toolMethods,
  ...promptMethods,
  ...resourceMethods,
  ...completionMethods,
  ...listenMethods,
};

/** Methods of the 2026-07-28 era that 2025-11-25 does not have (flagged where they are defined). */
export const MODERN_ONLY: ReadonlySet<string> = new Set(
  Object.keys(METHODS).filter((method) => METHODS[method]?.modernOnly === true),
);

export { LEGACY_METHODS, initialize } from './legacy.js';
export type { LegacyMethod } from './legacy.js';
export { own } from './types.js';
export type { MethodEnv, MethodSpec } from './types.js';
