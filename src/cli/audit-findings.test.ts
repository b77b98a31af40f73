import { describe, expect, it } from 'vitest';
import { FINDING_CODES, FindingLog, fieldToPointer, pointer, quote } from './audit-findings.js';

describe('fieldToPointer', () => {
  it.each([
    ['result', ''],
    ['result.contents[0].blob', '/contents/0/blob'],
    ['result["a b"][2]', '/a b/2'],
    [
      'result._meta["io.modelcontextprotocol/serverInfo"].name',
      '/_meta/io.modelcontextprotocol~1serverInfo/name',
    ],
    ['result["t~x"]', '/t~0x'],
    ['content[1]', '/content/1'],
    ['contents[0]', '/contents/0'],
  ])('%s → %s', (field, expected) => {
    expect(fieldToPointer(field)).toBe(expected);
  });
});

describe('FindingLog', () => {
  it('takes the severity from the table unless given, keeps one of identical findings', () => {
    const log = new FindingLog();
    log.add({ code: 'uri-invalid', message: 'm', uri: 'x' });
    log.add({ code: 'uri-invalid', message: 'm', uri: 'x' });
    log.add({ code: 'result-over-cap', severity: 'warning', message: 'big' });
    log.add({
      code: 'name-reused',
      message: 'n',
      name: 'a',
      method: 'tools/list',
      path: '/tools/1',
    });
    expect(log.findings.map((f) => [f.code, f.severity])).toEqual([
      ['uri-invalid', 'error'],
      ['result-over-cap', 'warning'],
      ['name-reused', 'info'],
    ]);
    expect(log.summary()).toEqual({ error: 1, warning: 1, info: 1 });
    expect(log.has('name-reused')).toBe(true);
    expect(Object.keys(log.findings[2] as object)).toEqual([
      'severity',
      'code',
      'message',
      'name',
      'method',
      'path',
    ]);
  });

  it('has the severities of the issue table', () => {
    expect(FINDING_CODES).toMatchObject({
      'blob-invalid-base64': 'error',
      'link-unresolved': 'error',
      'link-read-failed': 'error',
      'result-over-cap': 'error',
      'missing-result-type': 'error',
      'missing-cache-hints': 'error',
      'template-invalid': 'error',
      'uri-invalid': 'error',
      'schema-violation': 'error',
      'blob-missing-mime': 'warning',
      'blob-noncanonical-base64': 'warning',
      'mime-mismatch': 'warning',
      'embed-over-budget': 'warning',
      'legacy-not-found-code': 'warning',
      'name-reused': 'info',
      'link-not-checked': 'info',
      unreachable: 'error',
    });
  });
});

describe('pointer and quote', () => {
  it('escapes pointer segments and cuts long quotes', () => {
    expect(pointer('/a', 'b/c', 0, '~')).toBe('/a/b~1c/0/~0');
    expect(quote('x'.repeat(10), 5)).toBe('"xxxx…');
    expect(quote('\x1b')).toBe('"\\u001b"');
  });
});
