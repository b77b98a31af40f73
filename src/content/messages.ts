/** Prompt messages and tool results around content blocks. */
import type { CallToolResult, ContentBlock, PromptMessage, Role } from '../protocol/types.js';
import { text } from './builders.js';
import { describe, fail, isPlainObject } from './checks.js';

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

function checkBlock(block: unknown, path: string): void {
  if (!isPlainObject(block) || !BLOCK_TYPES.has(block.type as string)) {
    fail(
      path,
      `must be a content block (build one with text(), image(), ...), got ${describe(block)}`,
    );
  }
}

function message(role: Role, block: ContentBlock): PromptMessage {
  checkBlock(block, `${role}Message.content`);
  return { role, content: block };
}

/** A prompt message from the user: `{ role: 'user', content: block }` (one block, per spec). */
export function userMessage(block: ContentBlock): PromptMessage {
  return message('user', block);
}

/** A prompt message from the assistant: `{ role: 'assistant', content: block }`. */
export function assistantMessage(block: ContentBlock): PromptMessage {
  return message('assistant', block);
}

/** A successful tool result: `{ content: [...blocks] }`. */
export function toolResult(...blocks: ContentBlock[]): CallToolResult {
  blocks.forEach((block, i) => checkBlock(block, `toolResult.content[${i}]`));
  return { content: blocks };
}

/**
 * A failed tool result, `{ content: [{ type: 'text', text }], isError: true }`: tool failures are
 * results the model can read, not protocol errors.
 */
export function toolError(message: string): CallToolResult & { isError: true } {
  return { content: [text(message)], isError: true };
}
