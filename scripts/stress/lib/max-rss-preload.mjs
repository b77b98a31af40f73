// Loaded with --import into a short-lived measured process: at its exit, writes its peak RSS
// (getrusage's ru_maxrss, in bytes) as one JSON line to fd 3, which the parent opened as a pipe.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    writeSync(3, `${JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
  } catch {
    // fd 3 not opened by the parent: nothing to report to
  }
});
