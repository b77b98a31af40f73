import { describe, expect, it } from 'vitest';
import { InputRequiredSignal, isInputRequired } from './input-required.js';

const requests = { confirm: { method: 'elicitation/create' as const, params: { message: 'ok?' } } };

describe('InputRequiredSignal', () => {
  it('keeps what the round needs', () => {
    const signal = new InputRequiredSignal(requests, { earlier: 1 }, { step: 2 });
    expect(signal.inputRequests).toBe(requests);
    expect(signal.answers).toEqual({ earlier: 1 });
    expect(signal.userState).toEqual({ step: 2 });
  });

  it('is deliberately not an Error, so error-reporting catch blocks pass it on', () => {
    const signal = new InputRequiredSignal(requests, {}, undefined);
    expect(signal).not.toBeInstanceOf(Error);
    let reported = false;
    try {
      throw signal;
    } catch (e) {
      if (e instanceof Error) reported = true;
      expect(isInputRequired(e)).toBe(true);
    }
    expect(reported).toBe(false);
  });
});

describe('isInputRequired', () => {
  it.each([
    ['an Error', new Error('input required')],
    ['a look-alike object', { inputRequests: requests, answers: {}, userState: undefined }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'InputRequiredSignal'],
  ])('is false for %s', (_what, value) => {
    expect(isInputRequired(value)).toBe(false);
  });

  it('is true for a signal', () => {
    expect(isInputRequired(new InputRequiredSignal({}, {}, undefined))).toBe(true);
  });
});
