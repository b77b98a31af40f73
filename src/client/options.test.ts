import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../testing/scripted-transport.js';
import { McpClient } from './client.js';

describe('McpClient limits', () => {
  const names = [
    'maxListItems',
    'maxListBytes',
    'maxCursorBytes',
    'maxInputRounds',
    'maxInputRequests',
  ] as const;

  it.each(names)('%s takes 1 and refuses 0, a fraction, NaN and Infinity, naming it', (name) => {
    const transport = new ScriptedTransport().modern();
    expect(() => new McpClient({ transport, [name]: 1 })).not.toThrow();
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new McpClient({ transport, [name]: bad })).toThrow(
        new RangeError(`McpClient: ${name} must be a positive integer, got ${String(bad)}`),
      );
  });
});
