/**
 * A read-pool worker: runs each job it claims (read-job.ts) and answers with its result; a job
 * another worker claimed first (moved off this one while it was held) is answered "skipped"; a
 * job that waits for its file to settle says "parked" and the worker runs others meanwhile.
 */
import * as fs from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { errorCode, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import { jobOfMessage, runReadJob } from './read-job.js';

if (isMainThread) throw new Error('read-worker.ts runs in a read-pool worker only');

function handleOf(fd: number): ProviderFileHandle {
  return {
    fd,
    stat: async () => fs.fstatSync(fd),
    read: async (buffer, offset, length, position) => ({
      bytesRead: fs.readSync(fd, buffer, offset, length, position),
    }),
    close: async () => fs.closeSync(fd),
  };
}

/**
 * The provider's calls, blocking: they hold only this worker's thread, never the event loop of
 * the server (the module refuses to load on the main thread). A job lists no folder.
 */
function blockingFs(settleMs: number | undefined, parked: (ms: number) => void): ProviderFs {
  return {
    realpath: async (p) => fs.realpathSync.native(p),
    stat: async (p) => fs.statSync(p),
    readdir: () => Promise.reject(new Error('a read job lists no folder')),
    open: async (p, flags) => handleOf(fs.openSync(p, flags)),
    access: async (p) => fs.accessSync(p, fs.constants.R_OK),
    fdPath: async (fd) => {
      if (process.platform !== 'linux') return undefined;
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return undefined;
      }
    },
    ...(settleMs !== undefined ? { settleMs } : {}),
    // A job waiting for its file to settle holds no syscall: the pool is told so that it does
    // not take this worker for one held by a slow file (and start more), and the worker runs
    // other jobs meanwhile.
    sleep: (ms) => {
      if (ms >= PARKED_MIN_MS) parked(ms);
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
  };
}

/** Shorter waits (the few ms between two stats of a hot file) are not worth a message. */
const PARKED_MIN_MS = 20;

const port = parentPort;
const claims = (workerData as { claims?: Int32Array } | null)?.claims;
if (port) {
  port.on('message', (message: string) => {
    const { id, job } = jobOfMessage(message);
    if (claims && Atomics.compareExchange(claims, id % claims.length, id, -1) !== id) {
      port.postMessage({ id, skipped: true });
      return;
    }
    const parked = (ms: number): void => port.postMessage({ id, parked: ms });
    runReadJob(blockingFs(job.settleMs, parked), job).then(
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
  port.postMessage({ id: -1, ready: true });
}
