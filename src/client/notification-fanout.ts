/** Listeners that see every notification a client receives; one that throws never stops the rest. */
import type { ClientWarning } from './options.js';

export type NotificationListener = (notification: {
  method: string;
  params?: Record<string, unknown>;
}) => void;

export class NotificationFanout {
  private readonly listeners = new Set<NotificationListener>();

  add(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(
    notification: { method: string; params?: Record<string, unknown> },
    warn: (warning: ClientWarning) => void,
  ): void {
    for (const listener of this.listeners) {
      try {
        listener(notification);
      } catch (error) {
        warn({
          code: 'HANDLER_FAILED',
          message: `a notification listener threw: ${String(error)}`,
        });
      }
    }
  }
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
