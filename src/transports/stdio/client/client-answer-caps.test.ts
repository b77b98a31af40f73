import { describe, expect, it } from 'vitest';
import { AnswerCaps, capErrors } from './client-answer-caps.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const answer = (id: number | string, pad: number): string =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"pad":"${'x'.repeat(pad)}"}}`;

describe('AnswerCaps', () => {
  it('finds the line of a capped request passing its limit, across chunks, with where it began', () => {
    const caps = new AnswerCaps();
    caps.sent(1, 100);
    caps.sent(2, undefined);
    const before = `${answer(2, 10)}\n`;
    const line = answer(1, 500);
    expect(caps.scan(bytes(before + line.slice(0, 50)))).toBeUndefined();
    const passed = caps.scan(bytes(line.slice(50, 200)));
    expect(passed).toMatchObject({ id: 1, cap: 100, bytes: 200, lineStart: 0 });
    const fresh = new AnswerCaps();
    fresh.sent(1, 100);
    expect(fresh.scan(bytes(before + line))).toMatchObject({ id: 1, lineStart: before.length });
  });

  it('lets through long answers to uncapped requests, server requests and settled requests', () => {
    const caps = new AnswerCaps();
    caps.sent(1, 100);
    caps.sent(2, undefined);
    expect(caps.scan(bytes(`${answer(2, 5000)}\n`))).toBeUndefined();
    const request = `{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"p":"${'y'.repeat(5000)}"}}\n`;
    expect(caps.scan(bytes(request))).toBeUndefined();
    caps.settled(1);
    expect(caps.scan(bytes(`${answer(1, 5000)}\n`))).toBeUndefined();
  });

  it('a line with no id up front counts against the largest limit when every request set one', () => {
    const caps = new AnswerCaps();
    caps.sent(1, 100);
    caps.sent(2, 6000);
    const tail = `{"jsonrpc":"2.0","result":{"pad":"${'x'.repeat(9000)}"},"id":1}`;
    expect(caps.scan(bytes(tail))).toMatchObject({ id: undefined, cap: 6000 });
    const mixed = new AnswerCaps();
    mixed.sent(1, 100);
    mixed.sent(2, undefined);
    expect(mixed.scan(bytes(tail))).toBeUndefined();
    // A listen stream in flight does not shield it.
    const listening = new AnswerCaps();
    listening.sent(1, 100);
    listening.sent(5, undefined, true);
    expect(listening.scan(bytes(tail))).toMatchObject({ id: undefined, cap: 100 });
  });

  it('checks a parsed answer whole against the limit of the id JSON.parse found', () => {
    const caps = new AnswerCaps();
    caps.sent(1, 100);
    caps.sent(2, undefined);
    // Past the head scan: an id after 4 KiB with an uncapped request in flight, a duplicated id.
    const tail = `{"jsonrpc":"2.0","result":{"pad":"${'x'.repeat(9000)}"},"id":1}`;
    expect(caps.scan(bytes(`${tail}\n`))).toBeUndefined();
    expect(caps.overLimit(1, tail)).toBe(100);
    expect(caps.overLimit(1, `{"id":1,"result":{"p":"${'é'.repeat(40)}"}}`)).toBe(100);
    expect(caps.overLimit(1, answer(1, 10))).toBeUndefined();
    expect(caps.overLimit(2, tail)).toBeUndefined();
    expect(caps.overLimit(3, tail)).toBeUndefined();
  });

  it('with no limit in flight, only the open line is tracked (a limit set mid-line still holds)', () => {
    const caps = new AnswerCaps();
    expect(caps.scan(bytes(`${answer(1, 10)}\n{"jsonrpc":"2.0","id":3,`))).toBeUndefined();
    caps.sent(3, 50);
    expect(caps.scan(bytes(`"result":{"pad":"${'x'.repeat(100)}"}}`))).toMatchObject({ id: 3 });
  });

  it('the errors say why the connection ended', () => {
    const { request, connection } = capErrors('server "x"', {
      id: 4,
      cap: 100,
      bytes: 150,
      lineStart: 0,
    });
    expect(request.code).toBe('RESPONSE_TOO_LARGE');
    expect(request.message).toContain('the answer to request 4');
    expect(request.message).toContain('100-byte limit');
    expect(connection.code).toBe('PEER_CLOSED');
    expect(connection.message).toContain('the connection was ended');
  });
});
