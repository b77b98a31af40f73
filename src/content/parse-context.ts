/** The state of one parse: strict (throw) or lenient (repair + warn), and pending MIME sniffs. */
import { findBase64Problem } from '../protocol/base64.js';
import { checkAnnotations } from './annotations.js';
import { decodeBase64, repairBase64 } from './blob.js';
import { describe, fail, metaProblem, mimeTypeProblem } from './checks.js';
import { DEFAULT_BINARY_MIME, SNIFF_SAMPLE, sniffMime } from './mime.js';

export type ParseMode = 'strict' | 'lenient';

interface PendingSniff {
  target: Record<string, unknown>;
  base64: string;
  warning: number;
  path: string;
}

/** @internal */
export class ParseContext {
  readonly warnings: string[] = [];
  private readonly sniffs: PendingSniff[] = [];

  constructor(readonly mode: ParseMode) {}

  get strict(): boolean {
    return this.mode === 'strict';
  }

  /** A violation that lenient parsing repairs as `action` describes (strict: throws). */
  fix(path: string, message: string, action: string): void {
    if (this.strict) fail(path, message);
    this.warnings.push(`${path} ${message}; ${action}`);
  }

  /** Copies `_meta` when valid (lenient: drops a bad one). */
  meta(from: Record<string, unknown>, to: Record<string, unknown>, path: string): void {
    if (from._meta === undefined) return;
    const why = metaProblem(from._meta);
    if (why === undefined) to._meta = from._meta;
    else this.fix(`${path}._meta`, why, 'dropped');
  }

  /** Copies annotations with their valid fields (lenient: drops bad fields, warns for each). */
  annotations(value: unknown, to: Record<string, unknown>, path: string): void {
    if (value === undefined) return;
    const checked = checkAnnotations(value, path, { strictKeys: this.strict, allowDate: false });
    for (const [at, message] of checked.problems) this.fix(at, message, 'dropped');
    if (checked.annotations !== undefined) to.annotations = checked.annotations;
  }

  /** Strict: every key outside `known` is an error. Lenient: extra keys are kept as they are. */
  extras(
    from: Record<string, unknown>,
    to: Record<string, unknown>,
    known: readonly string[],
    path: string,
    what: string,
  ): void {
    for (const key of Object.keys(from)) {
      if (known.includes(key)) continue;
      if (key === '__proto__') {
        // JSON.parse makes it an own key; assigned, it would become the copy's prototype and
        // lend it unchecked fields (icons, annotations, blob) that no check above has seen.
        this.fix(`${path}.${key}`, `is not a field of ${what}`, 'dropped');
        continue;
      }
      if (this.strict) {
        const near = known.find((k) => k.toLowerCase() === key.toLowerCase());
        fail(
          `${path}.${key}`,
          `is not a field of ${what}${near ? ` (did you mean ${near}?)` : ''}`,
        );
      }
      to[key] = from[key];
    }
  }

  /** A base64 field: canonical in strict mode; lenient repairs what it can, else throws. */
  base64(value: unknown, path: string): string {
    if (typeof value !== 'string') fail(path, `must be a base64 string, got ${describe(value)}`);
    const problem = findBase64Problem(value);
    if (problem === undefined) return value;
    const message = `is not canonical base64 at offset ${problem.offset} (${problem.reason})`;
    const repaired = this.strict ? undefined : repairBase64(value);
    if (repaired === undefined) fail(path, message);
    this.fix(path, message, `repaired (${repaired.fixes.join(', ')})`);
    return repaired.base64;
  }

  /**
   * A blob's `mimeType`: required and well-formed (and `${topLevel}/*` when given). Lenient: a
   * missing or malformed one is sniffed later from the bytes; a wrong top-level type is kept.
   */
  blobMime(
    value: unknown,
    to: Record<string, unknown>,
    base64: string,
    path: string,
    topLevel?: string,
  ): void {
    const at = `${path}.mimeType`;
    const why = value === undefined ? 'is missing' : mimeTypeProblem(value);
    if (why === undefined) {
      const wrongType = topLevel === undefined ? undefined : mimeTypeProblem(value, topLevel);
      if (wrongType !== undefined) this.fix(at, wrongType, 'kept');
      to.mimeType = value;
      return;
    }
    if (this.strict) fail(at, why);
    to.mimeType = DEFAULT_BINARY_MIME; // placeholder that keeps the key order; sniffed in finish()
    this.warnings.push('');
    this.sniffs.push({
      target: to,
      base64,
      warning: this.warnings.length - 1,
      path: `${at} ${why}`,
    });
  }

  /** Runs the pending sniffs (decoding only a prefix of each blob) and fills in their warnings. */
  async finish(): Promise<void> {
    await Promise.all(
      this.sniffs.map(async ({ target, base64, warning, path }) => {
        const prefix = base64.slice(0, 4 * Math.ceil(SNIFF_SAMPLE / 3));
        const sniffed = await sniffMime(decodeBase64(prefix));
        target.mimeType = sniffed ?? DEFAULT_BINARY_MIME;
        this.warnings[warning] = sniffed
          ? `${path}; set to "${sniffed}" (sniffed from the bytes)`
          : `${path}; set to "${DEFAULT_BINARY_MIME}" (the bytes were not recognised)`;
      }),
    );
  }
}
