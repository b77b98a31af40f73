/** Starts a worker from a module beside the caller's; from the TypeScript sources (tests), through tsx. */
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** `name` without extension, next to `here` (the caller's `import.meta.url`). */
export function startModuleWorker(
  here: string,
  name: string,
  workerData: unknown,
  resourceLimits?: ResourceLimits,
): Worker {
  const limits = resourceLimits ? { resourceLimits } : {};
  if (!here.endsWith('.ts'))
    return new Worker(new URL(`./${name}.js`, here), { workerData, ...limits });
  // An evaluated worker resolves bare names from the working directory: the project's.
  const entry = new URL(`./${name}.ts`, here).href;
  const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData, ...limits });
}
