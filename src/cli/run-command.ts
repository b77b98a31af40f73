/** The mcpkit command line: argument parsing and output only; the work is done by the library. */
import { isMcpKitError } from '../errors/index.js';
import { parseServeArgs } from './args.js';
import { runAudit } from './audit-command.js';
import { parseBridgeArgs } from './bridge-args.js';
import { explainCommand, printConfig, runBridge } from './bridge-command.js';
import { BRIDGE_USAGE } from './bridge-usage.js';
import { parseHostArgs } from './host-args.js';
import { runInspect } from './inspect-command.js';
import { packageVersion, runServe, UsageError } from './serve-command.js';
import { AUDIT_USAGE, INSPECT_USAGE, USAGE } from './usage.js';

/** How the entry (main.ts) learns how to stop a started server on SIGINT/SIGTERM. */
export type OnStop = (stop: () => void) => void;

async function main(argv: string[], onStop: OnStop): Promise<number | undefined> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (command === 'inspect' || command === 'audit') {
    const host = parseHostArgs(command, rest);
    if (host.kind === 'help') {
      process.stdout.write(command === 'inspect' ? INSPECT_USAGE : AUDIT_USAGE);
      return 0;
    }
    if (host.kind === 'error') throw new UsageError(host.message);
    return command === 'inspect' ? runInspect(host.args) : runAudit(host.args);
  }
  if (command === 'bridge') {
    const parsed = parseBridgeArgs(rest);
    if (parsed.kind === 'help') {
      process.stdout.write(BRIDGE_USAGE);
      return 0;
    }
    if (parsed.kind === 'error') throw new UsageError(parsed.message);
    if (parsed.kind === 'explain') return explainCommand(parsed.profile);
    if (parsed.args.printConfig !== undefined) return printConfig(parsed.args);
    const bridge = await runBridge(parsed.args);
    onStop(() => void bridge.stop());
    return bridge.done;
  }
  if (command !== 'serve') throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const parsed = parseServeArgs(rest);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'error') throw new UsageError(parsed.message);
  const server = await runServe(parsed.args);
  onStop(() => void server.stop());
  return server.done;
}

/** Exits once what was written to stdout and stderr has been handed to the OS (pipes are asynchronous). */
export function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = (): void => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

/** Runs the command of `argv` and exits with its status. */
export function runCommand(argv: string[], onStop: OnStop): void {
  main(argv, onStop).then(
    (code) => exitAfterFlush(code ?? 0),
    (error: unknown) => {
      const usage = error instanceof UsageError;
      const message =
        isMcpKitError(error) || error instanceof Error ? error.message : String(error);
      process.stderr.write(`mcpkit: ${message}${usage ? " (see 'mcpkit --help')" : ''}\n`);
      exitAfterFlush(usage ? 2 : 1);
    },
  );
}
