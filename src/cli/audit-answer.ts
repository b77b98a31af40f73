/**
 * Checks of one answer as the server sent it (before the client's repairs): its size against
 * the 10 MiB a stdio client takes, `resultType` and the cache hints of 2026-07-28, and the
 * official schema of the era.
 */
import type { Era } from '../protocol/index.js';
import { findBase64Problem, uriProblem, validateServerResult } from '../protocol/index.js';
import { fieldToPointer, quote, type FindingLog, type Place } from './audit-findings.js';
import { isCacheable } from '../protocol/methods.js';

/** The official SDK client's stdio buffer: the largest JSON-RPC message it takes. */
export const RESULT_CAP_BYTES = 10 * 1024 * 1024;

/** `{"jsonrpc":"2.0","id":…,"result":` and the closing brace, with a line feed. */
const ENVELOPE_BYTES = 40;

/** Format failures that a more precise finding reports (blob-*, uri-invalid). */
const PRECISE = /must be (canonical base64|an absolute URI \(RFC 3986\))( \(schema [\d-]+\))?$/;

/** Whether a schema message is a format failure that the blob and URI checks report better. */
export function isPreciseIssue(message: string): boolean {
  return PRECISE.test(message);
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface AnswerContext {
  era: Era;
  transport: 'stdio' | 'http';
  log: FindingLog;
}

/** Bytes of the JSON-RPC message that carried `result` (re-serialised: whitespace aside). */
export function answerBytes(result: unknown): number {
  return Buffer.byteLength(JSON.stringify(result) ?? '', 'utf8') + ENVELOPE_BYTES;
}

/** `result-over-cap` for an answer of `bytes`: an error over stdio, a warning over HTTP. */
export function overCap(ctx: AnswerContext, place: Place, bytes: number, what: string): void {
  if (bytes <= RESULT_CAP_BYTES) return;
  ctx.log.add({
    code: 'result-over-cap',
    severity: ctx.transport === 'stdio' ? 'error' : 'warning',
    message: `${what} takes ${bytes} bytes, over the ${RESULT_CAP_BYTES} bytes (10 MiB) the official SDK client's stdio buffer takes${ctx.transport === 'stdio' ? '' : ' (over HTTP it may pass, over stdio it would not)'}; offer it in parts or as a link`,
    ...place,
  });
}

/**
 * Judges one raw answer. The schema is checked on a copy with `resultType`, `ttlMs` and
 * `cacheScope` filled in, so that their absence (reported by its own code) does not hide the
 * next problem; a format failure of a blob or URI is left to the blob and URI checks.
 */
export function checkAnswer(raw: unknown, place: Place, ctx: AnswerContext): void {
  const { log, era } = ctx;
  overCap(ctx, place, answerBytes(raw), `the answer to ${place.method}`);
  if (!isObj(raw)) {
    log.add({
      code: 'schema-violation',
      message: `the result is ${quote(raw, 40)}, not an object`,
      path: '',
      ...place,
    });
    return;
  }
  let copy: Obj = raw;
  if (era === 'modern') {
    if (raw['resultType'] === undefined) {
      log.add({
        code: 'missing-result-type',
        message: `a 2026-07-28 result must say its resultType ("complete")`,
        path: '/resultType',
        ...place,
      });
      copy = { ...copy, resultType: 'complete' };
    }
    if (isCacheable(place.method) && copy['resultType'] === 'complete') {
      const missing = ['ttlMs', 'cacheScope'].filter((k) => raw[k] === undefined);
      if (missing.length > 0) {
        log.add({
          code: 'missing-cache-hints',
          message: `a 2026-07-28 ${place.method} result must carry ${missing.join(' and ')} (e.g. "ttlMs": 0, "cacheScope": "private")`,
          path: `/${missing[0]}`,
          ...place,
        });
        copy = { ttlMs: 0, cacheScope: 'private', ...copy };
      }
    }
  }
  copy = forSchema(copy) as Obj;
  const kind =
    era === 'modern' && copy['resultType'] === 'input_required' ? 'input_required' : place.method;
  const issue = validateServerResult(era, kind, copy);
  if (issue && !PRECISE.test(issue.message)) {
    log.add({
      code: 'schema-violation',
      message: `${issue.message} (schema ${era === 'modern' ? '2026-07-28' : '2025-11-25'})`,
      path: fieldToPointer(issue.field),
      ...place,
    });
  }
}

/** Stands in for an invalid URI in the schema's copy (the URI check reports the real one). */
const SOME_URI = 'urn:mcpkit:audit-placeholder';

/**
 * A copy of an answer for the schema check, where a blob or image/audio `data` that is not
 * canonical base64 reads `""` and a `uri` that is not RFC 3986 reads a placeholder: those have
 * findings of their own, and the first schema error would otherwise be about them (an invalid
 * blob fails the blob branch of an `anyOf`, and the validator then names the text branch's
 * missing `text`). Copies only the objects on the way to a change.
 */
export function forSchema(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = forSchema(value[i], depth + 1);
      if (next !== value[i]) (out ??= [...value])[i] = next;
    }
    return out ?? value;
  }
  const obj = value as Obj;
  let out: Obj | undefined;
  const set = (key: string, next: unknown): void => void ((out ??= { ...obj })[key] = next);
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (typeof v === 'string') {
      const base64 =
        key === 'blob' || (key === 'data' && (obj['type'] === 'image' || obj['type'] === 'audio'));
      if (base64 && findBase64Problem(v) !== undefined) set(key, '');
      else if (key === 'uri' && uriProblem(v) !== undefined) set(key, SOME_URI);
    } else if (typeof v === 'object' && v !== null) {
      const next = forSchema(v, depth + 1);
      if (next !== v) set(key, next);
    }
  }
  return out ?? obj;
}
