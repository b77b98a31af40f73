/** Protocol revisions and the era each belongs to. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28';
export const LATEST_LEGACY_VERSION = '2025-11-25';

/** Revisions served statelessly (per-request `_meta`, no `initialize`). */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

/** Revisions served through `initialize` and sessions, newest first. */
export const LEGACY_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];

export const SUPPORTED_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

export type Era = 'modern' | 'legacy';

const modern = new Set(MODERN_VERSIONS);
const legacy = new Set(LEGACY_VERSIONS);

/** The era a version string belongs to, or undefined when we do not speak it. */
export function eraOf(version: string): Era | undefined {
  if (modern.has(version)) return 'modern';
  if (legacy.has(version)) return 'legacy';
  return undefined;
}

export function isModernVersion(version: unknown): boolean {
  return typeof version === 'string' && modern.has(version);
}
