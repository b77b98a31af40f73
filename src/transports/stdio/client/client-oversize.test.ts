import { describe, expect, it } from 'vitest';
import { scanOversizeHead } from './client-oversize.js';

describe('scanOversizeHead', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":3,"result":{"pad":"xx', { id: 3, method: false }],
    ['{"jsonrpc":"2.0","id":"a\\"b","result":{', { id: 'a"b', method: false }],
    [' {"id" : -7 ,"result":{', { id: -7, method: false }],
    ['{"result":{"id":9,"x":[{"id":8}]},"id":4,"pad":"', { id: 4, method: false }],
    ['{"result":{"text":"\\"id\\":5"},"pad":"', { method: false }],
    ['{"jsonrpc":"2.0","id":12', { method: false }],
    ['{"jsonrpc":"2.0","id":"unterminated', { method: false }],
    ['{"id":1.5,"result":{', { method: false }],
    ['{"id":1e3,"result":{', { method: false }],
    ['{"id":null,"error":{', { method: false }],
    ['{"id":90071992547409930,"result":{', { method: false }],
    ['{"jsonrpc":"2.0","method":"notifications/message","params":{"id":2', { method: true }],
    [
      '{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{',
      { id: 's1', method: true },
    ],
    ['[{"id":1}', { method: false }],
    ['not json at all "id":1', { method: false }],
    ['', { method: false }],
  ])('%s', (head, expected) => {
    expect(scanOversizeHead(head)).toEqual(expected);
  });
});
