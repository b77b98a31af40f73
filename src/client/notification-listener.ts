/** What a client's notification listeners and raw-result hooks are. */
import type { ClientWarning } from './options.js';

export type NotificationListener = (notification: {
  method: string;
  params?: Record<string, unknown>;
}) => void;

/** The warning for a notification listener that threw (the others still ran). */
export function listenerThrew(error: unknown): ClientWarning {
  return { code: 'HANDLER_FAILED', message: `a notification listener threw: ${String(error)}` };
}

/** Hands a raw result to an `onRawResult` hook; a hook that throws becomes a warning. */
export function tellRaw(
  hook: (result: unknown) => void,
  raw: unknown,
  warn: (warning: ClientWarning) => void,
): void {
  try {
    hook(raw);
  } catch (error) {
    warn({ code: 'HANDLER_FAILED', message: `onRawResult threw: ${String(error)}` });
  }
}
