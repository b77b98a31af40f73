import type { ChangeEvent } from './types.js';

/**
 * What travels on `<prefix>events`, as JSON: `{ v: 1, from, event }` for a change, or
 * `{ v: 1, from, gap }` when an instance could not publish some of its events and every other
 * instance must end its listen streams. `from` is the publisher's instance id: an instance
 * delivers its own events when it publishes them, and skips their echo.
 */
export type BusMessage =
  | { from: string; event: ChangeEvent; gap?: undefined }
  | { from: string; gap: string; event?: undefined };

export const BUS_WIRE_VERSION = 1;

/** Longest message read off the channel: anyone who can write to Redis can publish on it. */
export const MAX_BUS_MESSAGE_CHARS = 64 * 1024;

const LISTS: ReadonlySet<string> = new Set(['tools', 'prompts', 'resources']);

export function encodeBusMessage(message: BusMessage): string {
  return JSON.stringify(
    message.event !== undefined
      ? { v: BUS_WIRE_VERSION, from: message.from, event: message.event }
      : { v: BUS_WIRE_VERSION, from: message.from, gap: message.gap },
  );
}

/** The message, or undefined when the text is not one this version publishes. */
export function decodeBusMessage(text: string): BusMessage | undefined {
  if (text.length > MAX_BUS_MESSAGE_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, from, event, gap } = value as Record<string, unknown>;
  if (v !== BUS_WIRE_VERSION || typeof from !== 'string' || from.length === 0) return undefined;
  if (typeof gap === 'string' && event === undefined) return { from, gap };
  const parsed = parseEvent(event);
  return parsed && gap === undefined ? { from, event: parsed } : undefined;
}

function parseEvent(value: unknown): ChangeEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, uri, list } = value as Record<string, unknown>;
  if (type === 'resource-updated' && typeof uri === 'string' && uri.length > 0)
    return { type, uri };
  if (type === 'list-changed' && typeof list === 'string' && LISTS.has(list))
    return { type, list: list as 'tools' | 'prompts' | 'resources' };
  return undefined;
}
