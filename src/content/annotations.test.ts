import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import { annotations, isIsoDateTime, type AnnotationsInput } from './annotations.js';

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isMcpKitError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a throw');
}

describe('annotations()', () => {
  it.each<[string, AnnotationsInput, object]>([
    ['empty', {}, {}],
    ['audience', { audience: ['user'] }, { audience: ['user'] }],
    ['both roles', { audience: ['assistant', 'user'] }, { audience: ['assistant', 'user'] }],
    ['priority 0', { priority: 0 }, { priority: 0 }],
    ['priority 1', { priority: 1 }, { priority: 1 }],
    [
      'string date',
      { lastModified: '2025-01-12T15:00:58Z' },
      { lastModified: '2025-01-12T15:00:58Z' },
    ],
    [
      'Date',
      { lastModified: new Date(Date.UTC(2025, 0, 12, 15, 0, 58)) },
      { lastModified: '2025-01-12T15:00:58.000Z' },
    ],
    ['undefined fields left out', { priority: undefined, audience: undefined }, {}],
    [
      'spec order',
      { lastModified: '2025-01-12T15:00:58+02:00', priority: 0.5, audience: ['user'] },
      { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58+02:00' },
    ],
  ])('%s', (_name, input, expected) => {
    const out = annotations(input);
    expect(out).toEqual(expected);
    expect(Object.keys(out)).toEqual(Object.keys(expected));
  });

  it.each<[string, unknown, string]>([
    [
      'priority above 1',
      { priority: 1.5 },
      'annotations.priority must be a number from 0 to 1, got 1.5',
    ],
    [
      'priority below 0',
      { priority: -0.1 },
      'annotations.priority must be a number from 0 to 1, got -0.1',
    ],
    [
      'priority NaN',
      { priority: NaN },
      'annotations.priority must be a number from 0 to 1, got NaN',
    ],
    [
      'priority string',
      { priority: '0.5' },
      'annotations.priority must be a number from 0 to 1, got "0.5"',
    ],
    [
      'audience role',
      { audience: ['user', 'bot'] },
      'annotations.audience[1] must be "user" or "assistant", got "bot"',
    ],
    ['audience repeat', { audience: ['user', 'user'] }, 'annotations.audience[1] repeats "user"'],
    ['audience empty', { audience: [] }, 'annotations.audience must not be empty'],
    ['audience string', { audience: 'user' }, 'annotations.audience must be an array'],
    [
      'date text',
      { lastModified: 'yesterday' },
      'annotations.lastModified must be an ISO 8601 date-time',
    ],
    [
      'date no zone',
      { lastModified: '2025-01-12T15:00:58' },
      'annotations.lastModified must be an ISO 8601',
    ],
    [
      'invalid Date',
      { lastModified: new Date('nope') },
      'annotations.lastModified must be an ISO 8601',
    ],
    ['unknown field', { prio: 1 }, 'annotations.prio is not a field of annotations'],
    ['not an object', 'x', 'annotations must be an object'],
  ])('rejects %s', (_name, input, message) => {
    const error = errorOf(() => annotations(input as AnnotationsInput));
    expect(error.code).toBe('INVALID_CONTENT');
    expect(error.message).toContain(message);
  });
});

describe('isIsoDateTime', () => {
  it.each([
    ['2025-01-12T15:00:58Z', true],
    ['2025-01-12T15:00:58.123456Z', true],
    ['2025-01-12t15:00:58z', true],
    ['2025-01-12T15:00:58-05:30', true],
    ['2024-02-29T00:00:00Z', true],
    ['2016-12-31T23:59:60Z', true],
    ['+010000-01-01T00:00:00.000Z', true],
    ['2023-02-29T00:00:00Z', false],
    ['2025-13-01T00:00:00Z', false],
    ['2025-04-31T00:00:00Z', false],
    ['2025-01-12T24:00:00Z', false],
    ['2025-01-12T15:00Z', false],
    ['2025-01-12 15:00:58Z', false],
    ['2025-01-12T15:00:58+25:00', false],
    ['2025-01-12', false],
    ['', false],
  ])('%s -> %s', (value, expected) => {
    expect(isIsoDateTime(value)).toBe(expected);
  });
});
