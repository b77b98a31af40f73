/**
 * A profile file checked and laid over its base: `extends` names a built-in (default
 * `passthrough`); every other field given replaces the base's, section by section (`tools.blobs`
 * alone changes only that; `maxResult` and the lists are replaced whole). Unknown fields are
 * errors, so that a typo does not silently keep the base's value.
 */
import { McpKitError } from '../../errors/index.js';
import { builtinNames, builtinProfile } from './builtins.js';
import type { FullProfile, PromptRules, ReadRules, ResultLimit, SurfaceRules } from './types.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const shown = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
};

class Checker {
  constructor(private readonly file: string) {}

  fail(field: string, want: string, got: unknown): never {
    throw new McpKitError(
      'BRIDGE_BAD_PROFILE',
      `profile ${this.file}: field "${field}" ${want} (got ${shown(got)})`,
    );
  }

  keys(obj: Record<string, unknown>, at: string, allowed: readonly string[]): void {
    for (const key of Object.keys(obj)) {
      if (!allowed.includes(key))
        this.fail(
          at ? `${at}.${key}` : key,
          `is not a profile field (known: ${allowed.join(', ')})`,
          obj[key],
        );
    }
  }

  oneOf<T extends string>(v: unknown, field: string, values: readonly T[]): T {
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    return this.fail(field, `must be one of ${values.map((x) => `"${x}"`).join(', ')}`, v);
  }

  bool(v: unknown, field: string): boolean {
    return typeof v === 'boolean' ? v : this.fail(field, 'must be true or false', v);
  }

  count(v: unknown, field: string): number {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    return this.fail(field, 'must be an integer >= 0', v);
  }

  strings(v: unknown, field: string): string[] | null {
    if (v === null) return null;
    if (Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== '')) return [...v];
    return this.fail(field, 'must be null or an array of non-empty strings', v);
  }

  limit(v: unknown, field: string): ResultLimit | null {
    if (v === null) return null;
    if (!isObj(v)) return this.fail(field, 'must be null or {"chars"?: N, "tokens"?: N}', v);
    this.keys(v, field, ['chars', 'tokens']);
    const out: ResultLimit = {};
    if (v['chars'] !== undefined) out.chars = this.count(v['chars'], `${field}.chars`);
    if (v['tokens'] !== undefined) out.tokens = this.count(v['tokens'], `${field}.tokens`);
    if (out.chars === undefined && out.tokens === undefined)
      this.fail(field, 'must give "chars" or "tokens" (or be null)', v);
    return out;
  }

  side<T extends SurfaceRules>(v: unknown, field: string, base: T, prompt: boolean): T {
    if (v === undefined) return base;
    if (!isObj(v)) return this.fail(field, 'must be an object', v);
    const allowed = ['resourceLinks', 'blobs', 'embeddedText', 'maxResult'];
    this.keys(v, field, prompt ? [...allowed, 'nonText'] : allowed);
    const out = { ...base };
    if (v['resourceLinks'] !== undefined)
      out.resourceLinks = this.oneOf(v['resourceLinks'], `${field}.resourceLinks`, [
        'read',
        'text',
        'drop',
      ]);
    if (v['blobs'] !== undefined)
      out.blobs = this.oneOf(v['blobs'], `${field}.blobs`, ['all', 'image/*', 'none']);
    if (v['embeddedText'] !== undefined)
      out.embeddedText = this.bool(v['embeddedText'], `${field}.embeddedText`);
    if (v['maxResult'] !== undefined)
      out.maxResult = this.limit(v['maxResult'], `${field}.maxResult`);
    if (prompt && v['nonText'] !== undefined)
      (out as unknown as PromptRules).nonText = this.bool(v['nonText'], `${field}.nonText`);
    return out;
  }

  read(v: unknown, base: ReadRules): ReadRules {
    if (v === undefined) return base;
    if (!isObj(v)) return this.fail('read', 'must be an object', v);
    this.keys(v, 'read', ['schemes', 'mimeTypes', 'uriPatterns', 'maxTurnBytes', 'maxTurnTokens']);
    const out = { ...base };
    for (const key of ['schemes', 'mimeTypes', 'uriPatterns'] as const) {
      if (v[key] !== undefined) out[key] = this.strings(v[key], `read.${key}`);
    }
    if (v['maxTurnBytes'] !== undefined)
      out.maxTurnBytes = this.count(v['maxTurnBytes'], 'read.maxTurnBytes');
    if (v['maxTurnTokens'] !== undefined)
      out.maxTurnTokens =
        v['maxTurnTokens'] === null ? null : this.count(v['maxTurnTokens'], 'read.maxTurnTokens');
    return out;
  }
}

function text(c: Checker, v: unknown, field: string, emptyOk: boolean): string {
  if (typeof v === 'string' && (emptyOk || v !== '')) return v;
  return c.fail(field, emptyOk ? 'must be a string' : 'must be a non-empty string', v);
}

export const PROFILE_FIELDS = [
  '$schema',
  'extends',
  'name',
  'description',
  'sources',
  'readsResources',
  'tools',
  'prompts',
  'read',
  'resizeImages',
] as const;

/** A parsed profile file (`json`) over its base; `file` names it in errors, `fallbackName` is its name when it gives none. */
export function parseProfile(json: unknown, file: string, fallbackName: string): FullProfile {
  const c = new Checker(file);
  if (!isObj(json)) return c.fail('(root)', 'must be a JSON object', json);
  c.keys(json, '', PROFILE_FIELDS);
  const ext = json['extends'] ?? 'passthrough';
  const base = typeof ext === 'string' ? builtinProfile(ext) : undefined;
  if (base === undefined)
    return c.fail('extends', `must name a built-in profile (${builtinNames().join(', ')})`, ext);
  const name = text(c, json['name'] ?? fallbackName, 'name', false);
  const description = text(c, json['description'] ?? base.description, 'description', true);
  const sources =
    json['sources'] === undefined ? base.sources : c.strings(json['sources'], 'sources');
  if (sources === null) return c.fail('sources', 'must be an array of strings', null);
  const out: FullProfile = {
    name,
    description,
    sources,
    readsResources:
      json['readsResources'] === undefined
        ? base.readsResources
        : c.bool(json['readsResources'], 'readsResources'),
    tools: c.side(json['tools'], 'tools', base.tools, false),
    prompts: c.side(json['prompts'], 'prompts', base.prompts, true),
    read: c.read(json['read'], base.read),
    resizeImages: false,
  };
  if (json['resizeImages'] !== undefined && c.bool(json['resizeImages'], 'resizeImages'))
    c.fail('resizeImages', 'must be false: resizing images is not supported yet', true);
  return out;
}
