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

export { LEGACY_METHODS, initialize } from './legacy.js';
export type { LegacyMethod } from './legacy.js';
export { own } from './types.js';
export type { MethodEnv, MethodSpec } from './types.js';
