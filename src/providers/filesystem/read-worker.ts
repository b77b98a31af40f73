/** A read-pool worker: runs one read job per message (read-job.ts), answers with its result. */
import { parentPort } from 'node:worker_threads';
import { errorCode } from './fs-types.js';
import { blockingFs, runReadJob, type ReadJob } from './read-job.js';

const port = parentPort;
if (port) {
  port.on('message', (message: { id: number; job: ReadJob }) => {
    const { id, job } = message;
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
