/**
 * Host profiles: what a host surfaces to its model, as data. Placeholder: only `passthrough`
 * until the profile set lands (issue 29); the shapes below are the contract the bridge builds on.
 */
import { McpKitError } from '../../errors/index.js';

export interface HostProfile {
  /** Built-in name, or the file's `name`. */
  name: string;
  /** False: the host never reads resources itself, so the bridge adds `read_resource`/`list_resources`. */
  readsResources: boolean;
  [field: string]: unknown;
}

export const PASSTHROUGH: HostProfile = { name: 'passthrough', readsResources: true };

/** Names `--profile` accepts (and `--print-config` hosts are among them). */
export function builtinProfileNames(): readonly string[] {
  return ['passthrough'];
}

/** `--profile NAME|FILE`: a built-in name, or a JSON file overriding a profile's fields. */
export async function loadProfile(spec: string): Promise<HostProfile> {
  if (spec === 'passthrough') return PASSTHROUGH;
  throw new McpKitError(
    'BRIDGE_UNKNOWN_PROFILE',
    `unknown profile "${spec}"; known: ${builtinProfileNames().join(', ')}`,
  );
}

/** `--explain-profile NAME`: JSON that `--profile FILE` accepts back. */
export function explainProfile(profile: HostProfile): string {
  return `${JSON.stringify(profile, null, 2)}\n`;
}
