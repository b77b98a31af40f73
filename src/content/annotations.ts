/** Annotations (audience, priority, lastModified): a strict builder and the shared checker. */
import type { Annotations, Role } from '../protocol/types.js';
import { describe, fail, isPlainObject } from './checks.js';

/** What `annotations()` accepts; `lastModified` may be a `Date` (converted with toISOString). */
export interface AnnotationsInput {
  audience?: Role[] | undefined;
  priority?: number | undefined;
  lastModified?: string | Date | undefined;
}

/** `[path, message]` pairs, the form every checker in content/ reports problems in. */
export type Problem = [path: string, message: string];

const FIELDS = new Set(['audience', 'priority', 'lastModified']);
const ISO =
  /^(\d{4}|[+-]\d{6})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether `value` is an ISO 8601 date-time in the RFC 3339 profile (`2025-01-12T15:00:58Z`). */
export function isIsoDateTime(value: string): boolean {
  if (value.length > 40) return false;
  const m = ISO.exec(value);
  if (m === null) return false;
  const [year, month, day, hour, minute, second, offH, offM] = m.slice(1).map(Number) as number[];
  const leap = year! % 4 === 0 && (year! % 100 !== 0 || year! % 400 === 0);
  const maxDay = month === 2 && !leap ? 28 : (DAYS[month! - 1] ?? 0);
  if (month! < 1 || month! > 12 || day! < 1 || day! > maxDay) return false;
  if (hour! > 23 || minute! > 59 || second! > 60) return false;
  return m[7] === undefined || (offH! <= 23 && offM! <= 59);
}

/**
 * Checks an annotations object. Returns the valid fields in spec order (plus unknown fields when
 * `strictKeys` is off) and one problem per bad field. `allowDate` accepts a `Date` lastModified.
 * @internal
 */
export function checkAnnotations(
  value: unknown,
  path: string,
  options: { strictKeys: boolean; allowDate: boolean },
): { annotations: Annotations | undefined; problems: Problem[] } {
  if (!isPlainObject(value)) {
    return {
      annotations: undefined,
      problems: [[path, `must be an object, got ${describe(value)}`]],
    };
  }
  const out: Annotations & Record<string, unknown> = {};
  const problems: Problem[] = [];
  const { audience, priority, lastModified } = value;
  if (audience !== undefined) {
    const why = audienceProblem(audience, `${path}.audience`);
    if (why === undefined) out.audience = [...(audience as Role[])];
    else problems.push(why);
  }
  if (priority !== undefined) {
    if (
      typeof priority === 'number' &&
      Number.isFinite(priority) &&
      priority >= 0 &&
      priority <= 1
    ) {
      out.priority = priority;
    } else {
      problems.push([
        `${path}.priority`,
        `must be a number from 0 to 1, got ${describe(priority)}`,
      ]);
    }
  }
  if (lastModified !== undefined) {
    if (
      options.allowDate &&
      lastModified instanceof Date &&
      !Number.isNaN(lastModified.getTime())
    ) {
      out.lastModified = lastModified.toISOString();
    } else if (typeof lastModified === 'string' && isIsoDateTime(lastModified)) {
      out.lastModified = lastModified;
    } else {
      problems.push([
        `${path}.lastModified`,
        `must be an ISO 8601 date-time like "2025-01-12T15:00:58Z", got ${describe(lastModified)}`,
      ]);
    }
  }
  for (const key of Object.keys(value)) {
    if (FIELDS.has(key)) continue;
    // Assigned, a JSON "__proto__" key would become the prototype: unchecked inherited fields.
    if (options.strictKeys || key === '__proto__')
      problems.push([`${path}.${key}`, 'is not a field of annotations']);
    else out[key] = value[key];
  }
  return { annotations: out, problems };
}

function audienceProblem(value: unknown, path: string): Problem | undefined {
  if (!Array.isArray(value))
    return [path, `must be an array of "user" | "assistant", got ${describe(value)}`];
  if (value.length === 0)
    return [path, 'must not be empty (omit it to address both user and assistant)'];
  for (let i = 0; i < value.length; i++) {
    const role: unknown = value[i];
    if (role !== 'user' && role !== 'assistant') {
      return [`${path}[${i}]`, `must be "user" or "assistant", got ${describe(role)}`];
    }
    if (value.indexOf(role) !== i) return [`${path}[${i}]`, `repeats ${JSON.stringify(role)}`];
  }
  return undefined;
}

/**
 * Builds spec `Annotations`, strictly: audience entries are "user"/"assistant" without repeats,
 * priority is a finite number in [0, 1], lastModified an ISO 8601 date-time (a `Date` is converted).
 * Undefined fields are left out. Throws McpKitError `INVALID_CONTENT` naming the field.
 *
 * @example
 * annotations({ audience: ['assistant'], priority: 0.8, lastModified: new Date() });
 */
export function annotations(input: AnnotationsInput, path = 'annotations'): Annotations {
  const { annotations: out, problems } = checkAnnotations(input, path, {
    strictKeys: true,
    allowDate: true,
  });
  const first = problems[0];
  if (first !== undefined) fail(first[0], first[1]);
  return out!;
}
