import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../errors/protocol-error.js';
import { fileVersion, parsePartRequest, partStat } from './parts.js';

const URI = 'file:///big.log?x';

function refusal(variables: Record<string, string | string[]>) {
  try {
    parsePartRequest(URI, variables, 1024);
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    const e = error as ProtocolError;
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('expected a refusal');
}

describe('parsePartRequest', () => {
  it('defaults offset to 0 and length to the part size; keeps a version', () => {
    expect(parsePartRequest(URI, {}, 1024)).toEqual({ offset: 0, length: 1024 });
    expect(parsePartRequest(URI, { offset: '007', length: '1' }, 1024)).toEqual({
      offset: 7,
      length: 1,
    });
    const version = 'AbCdEfGh-_012345';
    expect(parsePartRequest(URI, { version }, 9)).toEqual({ offset: 0, length: 9, version });
  });

  it.each([
    ['offset', '-1', 'not-an-integer'],
    ['offset', '1e3', 'not-an-integer'],
    ['offset', '0x10', 'not-an-integer'],
    ['offset', 'abc', 'not-an-integer'],
    ['offset', '', 'not-an-integer'],
    ['offset', ' 1', 'not-an-integer'],
    ['offset', '1.5', 'not-an-integer'],
    ['offset', '99999999999999999999', 'unsafe-integer'],
    ['length', '0', 'zero'],
    ['length', '-5', 'not-an-integer'],
    ['length', '9007199254740992', 'unsafe-integer'],
    ['version', 'nope', 'malformed'],
    ['version', '', 'malformed'],
  ])('%s=%j is -32602 naming the parameter (%s)', (parameter, value, reason) => {
    const r = refusal({ [parameter]: value });
    expect(r.code).toBe(-32602);
    expect(r.message).toContain(`"${parameter}"`);
    expect(r.data).toEqual({ uri: URI, parameter, reason });
  });

  it('accepts the largest safe integer, and cuts an absurd value in the message', () => {
    expect(parsePartRequest(URI, { offset: String(Number.MAX_SAFE_INTEGER) }, 1).offset).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(refusal({ offset: '9'.repeat(10_000) }).message.length).toBeLessThan(200);
  });
});

describe('fileVersion', () => {
  const stats = (over: Partial<Stats>): Stats =>
    ({ dev: 1, ino: 2, size: 3, mtimeMs: 4.5, ctimeMs: 6, ...over }) as Stats;

  it('is 16 characters of base64url that hide the inode, and moves with every field', () => {
    const v = fileVersion(stats({}));
    expect(v).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(fileVersion(stats({}))).toBe(v);
    for (const over of [{ dev: 9 }, { ino: 9 }, { size: 9 }, { mtimeMs: 4.6 }, { ctimeMs: 7 }])
      expect(fileVersion(stats(over))).not.toBe(v);
  });
});

describe('partStat', () => {
  it('sizes a part as the bytes it holds at most, undefined past the end', () => {
    const file = { size: 10, mimeType: 'text/plain' };
    expect(partStat(file, { offset: 0, length: 4 })).toEqual({ size: 4, mimeType: 'text/plain' });
    expect(partStat(file, { offset: 8, length: 4 })).toEqual({ size: 2, mimeType: 'text/plain' });
    expect(partStat(file, { offset: 10, length: 4 })).toBeUndefined();
    expect(partStat({ size: 0 }, { offset: 0, length: 4 })).toEqual({ size: 0 });
  });
});
