/**
 * A read-pool worker: runs each job it claims (read-job.ts) and answers with its result; a job
 * another worker claimed first (moved off this one while it was held) is answered "skipped".
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorCode } from './fs-types.js';
import { blockingFs, runReadJob, type ReadJob } from './read-job.js';

const port = parentPort;
const claims = (workerData as { claims?: Int32Array } | null)?.claims;
if (port) {
  port.on('message', (message: { id: number; job: ReadJob }) => {
    const { id, job } = message;
    if (claims && Atomics.compareExchange(claims, id % claims.length, id, -1) !== id) {
      port.postMessage({ id, skipped: true });
      return;
    }
    runReadJob(blockingFs(job.settleMs), job).then(
      (result) => port.postMessage({ id, result }),
      (error: unknown) => {
        const code = errorCode(error);
        port.postMessage({
          id,
          error: {
            message: error instanceof Error ? error.message : String(error),
            ...(typeof code === 'string' ? { code } : {}),
          },
        });
      },
    );
  });
}
