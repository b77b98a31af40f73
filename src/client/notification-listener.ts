/** What a client's notification listeners and raw-result hooks are. */
import type { ClientWarning } from './options.js';

export type NotificationListener = (notification: {
  method: string;
  params?: Record<string, unknown>;
}) => void;

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
