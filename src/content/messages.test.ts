import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/mcpkit-error.js';
import type { ContentBlock } from '../protocol/types.js';
import { resourceLink, text } from './builders.js';
import { assistantMessage, toolError, toolResult, userMessage } from './messages.js';

describe('messages and results', () => {
  it.each<[string, () => unknown, unknown]>([
    [
      'userMessage',
      () => userMessage(text('q')),
      { role: 'user', content: { type: 'text', text: 'q' } },
    ],
    [
      'assistantMessage',
      () => assistantMessage(text('a')),
      { role: 'assistant', content: { type: 'text', text: 'a' } },
    ],
    [
      'toolResult',
      () => toolResult(text('a'), resourceLink({ uri: 'file:///x', name: 'x' })),
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'resource_link', uri: 'file:///x', name: 'x' },
        ],
      },
    ],
    ['empty toolResult', () => toolResult(), { content: [] }],
    [
      'toolError',
      () => toolError('no such team'),
      { content: [{ type: 'text', text: 'no such team' }], isError: true },
    ],
  ])('%s', (_name, build, expected) => {
    const actual = build();
    expect(actual).toEqual(expected);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  });

  it.each<[string, () => unknown, string]>([
    [
      'message not a block',
      () => userMessage({ type: 'nope' } as unknown as ContentBlock),
      'userMessage.content must be a content block',
    ],
    [
      'result not a block',
      () => toolResult(text('a'), 'b' as unknown as ContentBlock),
      'toolResult.content[1] must be a content block',
    ],
  ])('%s', (_name, build, message) => {
    let caught: unknown;
    try {
      build();
    } catch (error) {
      caught = error;
    }
    expect(isMcpKitError(caught, 'INVALID_CONTENT')).toBe(true);
    expect((caught as Error).message).toContain(message);
  });
});
