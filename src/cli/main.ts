#!/usr/bin/env node
/**
 * The mcpkit command's entry. `serve` catches SIGINT and SIGTERM before anything else loads, so
 * that a stop in the first moments of start-up exits 0 as documented (not 130 or 143): before
 * the server runs there is nothing to close; once it runs, it is stopped and the command ends.
 * A second signal is not caught (the default: it ends the process at once).
 */
const argv = process.argv.slice(2);
/** Set as the command loads (`exit`) and once the server runs (`stop`). */
const hooks: { exit?: (code: number) => void; stop?: () => void; stopping?: boolean } = {};

function onSignal(): void {
  // Both listeners go: a second signal of either kind gets the default (ends the process).
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (hooks.stopping) return;
  hooks.stopping = true;
  if (hooks.stop) hooks.stop();
  else if (hooks.exit) hooks.exit(0);
  else process.exit(0); // still loading: nothing written, nothing to close
}

if (argv[0] === 'serve' || argv[0] === 'bridge') {
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

const { exitAfterFlush, runCommand } = await import('./run-command.js');
hooks.exit = exitAfterFlush;
runCommand(argv, (stop) => {
  if (hooks.stopping)
    stop(); // the signal came while it started
  else hooks.stop = stop;
});
