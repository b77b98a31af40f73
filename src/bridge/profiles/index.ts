/**
 * Host profiles: what a host surfaces to its model, as data (schema: docs/bridge-profile.schema.json,
 * described in docs/bridge-profiles.md). `loadProfile` takes a built-in name or a JSON file that
 * overrides fields of a built-in (`"extends"`, default `passthrough`).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { McpKitError } from '../../errors/index.js';
import { builtinNames, builtinProfile } from './builtins.js';
import { parseProfile } from './parse-profile.js';
import type { FullProfile, HostProfile } from './types.js';

export type {
  BlobHandling,
  FullProfile,
  HostProfile,
  LinkHandling,
  PromptRules,
  ReadRules,
  ResultLimit,
  SurfaceRules,
} from './types.js';
export { DEFAULT_READ_MIME_TYPES } from './builtins.js';
export { parseProfile, PROFILE_FIELDS } from './parse-profile.js';

export const PASSTHROUGH: HostProfile = builtinProfile('passthrough') as FullProfile;

/** Names `--profile` accepts (and `--print-config` hosts are among them). */
export function builtinProfileNames(): readonly string[] {
  return builtinNames();
}

/** A fresh copy of a built-in profile, or undefined. */
export function builtinProfileOf(name: string): FullProfile | undefined {
  return builtinProfile(name);
}

/** `--profile NAME|FILE`: a built-in name, or a JSON file overriding a profile's fields. */
export async function loadProfile(spec: string): Promise<FullProfile> {
  const builtin = builtinProfile(spec);
  if (builtin) return builtin;
  let text: string;
  try {
    text = await readFile(spec, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT')
      throw new McpKitError(
        'BRIDGE_UNKNOWN_PROFILE',
        `unknown profile "${spec}" (neither a built-in nor a file); known: ${builtinNames().join(', ')}`,
      );
    throw new McpKitError(
      'BRIDGE_BAD_PROFILE',
      `profile ${spec}: cannot be read (${String(error)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpKitError(
      'BRIDGE_BAD_PROFILE',
      `profile ${spec}: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return parseProfile(json, spec, basename(spec).replace(/\.json$/i, ''));
}

/** `--explain-profile NAME`: the whole profile as JSON that `--profile FILE` accepts back. */
export function explainProfile(profile: HostProfile): string {
  const { name, description, sources, readsResources, tools, prompts, read, resizeImages } =
    profile as FullProfile;
  const ordered = {
    name,
    description,
    sources,
    readsResources,
    tools,
    prompts,
    read,
    resizeImages,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
