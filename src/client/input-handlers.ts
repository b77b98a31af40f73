/**
 * The application's answers to what a server asks of the user or the model: elicitation,
 * sampling and roots. The same handlers serve 2026-07-28 input requests (MRTR) and the
 * 2025-11-25 server-to-client requests.
 */
import { McpKitError } from '../errors/index.js';
import { ProtocolError } from '../errors/index.js';
import type { ClientCapabilities, Era, Implementation } from '../protocol/index.js';

export type JsonObject = Record<string, unknown>;

export interface InputHandlerContext {
  era: Era;
  serverInfo: Implementation | undefined;
  /** The request that asked (tools/call, prompts/get, resources/read), when there is one. */
  request?: { method: string; params: JsonObject };
  signal?: AbortSignal;
}

export interface ElicitResult extends JsonObject {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export interface InputHandlers {
  /** `elicitation/create` params: `{ message, requestedSchema }` (or the URL mode). */
  elicitation?: (
    params: JsonObject,
    ctx: InputHandlerContext,
  ) => Promise<ElicitResult> | ElicitResult;
  /** `sampling/createMessage` params; answer a CreateMessageResult. */
  sampling?: (params: JsonObject, ctx: InputHandlerContext) => Promise<JsonObject> | JsonObject;
  /** `roots/list`; answer `{ roots: [{ uri, name? }] }`. */
  roots?: (params: JsonObject, ctx: InputHandlerContext) => Promise<JsonObject> | JsonObject;
}

/** The capabilities the handlers make true. */
export function capabilitiesFromHandlers(handlers: InputHandlers | undefined): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (handlers?.elicitation) caps.elicitation = { form: {} };
  if (handlers?.sampling) caps.sampling = {};
  if (handlers?.roots) caps.roots = {};
  return caps;
}

const METHODS = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;

export function isInputMethod(method: string): method is keyof typeof METHODS {
  return Object.hasOwn(METHODS, method);
}

/**
 * Runs the handler for one input request. A method with no handler is a `-32601` ProtocolError
 * (the server asked for a capability we never declared); a handler that throws is wrapped.
 */
export async function answerInput(
  method: string,
  params: JsonObject,
  handlers: InputHandlers | undefined,
  ctx: InputHandlerContext,
): Promise<JsonObject> {
  if (!isInputMethod(method)) throw ProtocolError.methodNotFound(method);
  const handler = handlers?.[METHODS[method]];
  if (!handler) throw ProtocolError.methodNotFound(method, 'the client has no handler for it');
  let result: JsonObject;
  try {
    result = await handler(params, ctx);
  } catch (error) {
    if (error instanceof ProtocolError || error instanceof McpKitError) throw error;
    throw ProtocolError.internal(`the ${method} handler failed: ${String(error)}`, error);
  }
  if (method === 'elicitation/create') {
    return applyElicitationDefaults(params['requestedSchema'], result as ElicitResult);
  }
  return result;
}

/**
 * Fills the fields an accepted elicitation left out with the `default` its schema gives
 * (SEP-1034), so the server sees a complete answer.
 */
export function applyElicitationDefaults(schema: unknown, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || typeof schema !== 'object' || schema === null) return result;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return result;
  const content: JsonObject = { ...(result.content ?? {}) };
  let changed = result.content === undefined;
  for (const [key, prop] of Object.entries(properties as JsonObject)) {
    if (Object.hasOwn(content, key) || typeof prop !== 'object' || prop === null) continue;
    const value = (prop as { default?: unknown }).default;
    if (value === undefined) continue;
    Object.defineProperty(content, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    changed = true;
  }
  return changed ? ({ ...result, content } as ElicitResult) : result;
}
