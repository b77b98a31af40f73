import { describe, expect, it } from 'vitest';
import { isJsonContentType } from './content-type.js';

describe('isJsonContentType: application/json, at most with charset=utf-8', () => {
  it.each([
    'application/json',
    'APPLICATION/JSON',
    'Application/Json',
    '  application/json  ',
    'application/json;charset=utf-8',
    'application/json; charset=utf-8',
    'application/json ; charset = utf-8',
    'application/json;\tcharset=UTF-8',
    'application/json; CHARSET=Utf-8',
    'application/json; charset="utf-8"',
    'application/json; charset="UTF-8"',
    // RFC 9110 allows empty parameters.
    'application/json;',
    'application/json; ; charset=utf-8;',
  ])('accepts %j', (value) => {
    expect(isJsonContentType(value)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'text/json',
    'application/*',
    '*/*',
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/jsonx',
    'application/json5',
    'application/ld+json',
    'application /json',
    'application/json;charset=utf-16',
    'application/json; charset=utf-16le',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf8',
    'application/json; charset=',
    'application/json; charset=""',
    'application/json; charset="utf-8',
    'application/json; charset="utf-8;x"',
    'application/json; charset=utf-8; charset=utf-8',
    'application/json; charset=utf-8; boundary=x',
    'application/json; version=2',
    'application/json; charset',
    'application/json, text/plain',
    'application/json; charset=utf-8, application/json-patch+json',
  ])('refuses %j', (value) => {
    expect(isJsonContentType(value)).toBe(false);
  });
});
