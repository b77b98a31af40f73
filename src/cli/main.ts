#!/usr/bin/env node
/**
 * The mcpkit command's entry. `serve` catches SIGINT and SIGTERM before anything else loads, so
 * that a stop in the first moments of start-up exits 0 as documented (not 130 or 143): before
 * the server runs there is nothing to close; once it runs, it is stopped and the command ends.
 * A second signal is not caught (the default: it ends the process at once).
 */
const argv = process.argv.slice(2);
let stopServer: (() => void) | undefined;
let stopping = false;
let exit: ((code: number) => void) | undefined;

function onSignal(): void {
  if (stopping) return;
  stopping = true;
  if (stopServer) stopServer();
  else if (exit) exit(0);
  else process.exit(0); // still loading: nothing written, nothing to close
}

if (argv[0] === 'serve') {
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

const { exitAfterFlush, runCommand } = await import('./run-command.js');
exit = exitAfterFlush;
runCommand(argv, (stop) => {
  if (stopping)
    stop(); // the signal came while it started
  else stopServer = stop;
});
