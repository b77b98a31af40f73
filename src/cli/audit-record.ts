/**
 * What a walk records for the HTML report (`--html`) beyond its findings: the size of every listed
 * resource against the peer caps, and every link checked with how it resolved. Filled only when a
 * report asks for it (the walk takes an optional WalkRecord).
 */
import { RESULT_CAP_BYTES } from './audit-answer.js';

/**
 * Where a resource's size puts it for a host: `embedded` fits the block budget (a tool may embed
 * it), `linked` is over it but a whole read fits the 10 MiB cap, `in-parts` is near or over the
 * cap with a parts template that covers it, `too-large` is over the cap with none.
 */
export type SizeClass = 'embedded' | 'linked' | 'in-parts' | 'too-large';

export const SIZE_CLASSES: readonly SizeClass[] = ['embedded', 'linked', 'in-parts', 'too-large'];

export interface ResourceSize {
  uri: string;
  name?: string;
  mimeType?: string;
  /** The listed `size`, when given. */
  listedSize?: number;
  /** Bytes of a whole read's answer: measured when read whole, else estimated from `size`. */
  wireBytes?: number;
  measured: boolean;
  /** How it was read: whole, its first part, a failed read, or not read (budget). */
  read: 'whole' | 'first part' | 'failed' | 'not read';
  /** Absent when neither a read nor a listed size tells it. */
  sizeClass?: SizeClass;
}

export type LinkOutcome = 'read' | 'fetched' | 'read failed' | 'unresolved' | 'not checked';

export interface LinkChecked {
  uri: string;
  /** The request whose answer held the link (method, and the prompt or tool name). */
  metIn: string;
  /** The JSON pointer of the link in that answer. */
  path: string;
  coveredBy?: string;
  outcome: LinkOutcome;
  /** Decoded bytes read or fetched. */
  bytes?: number;
  /** Why, in the words of the finding made (empty for a clean read). */
  detail: string;
}

/** The class of a resource whose whole read takes `wireBytes`. */
export function sizeClassOf(
  wireBytes: number,
  blockBudgetBytes: number,
  partsTemplate: boolean,
  nearCapBytes: number,
): SizeClass {
  if (partsTemplate && wireBytes > nearCapBytes) return 'in-parts';
  if (wireBytes > RESULT_CAP_BYTES) return 'too-large';
  return wireBytes > blockBudgetBytes ? 'linked' : 'embedded';
}

export class WalkRecord {
  readonly resources: ResourceSize[] = [];
  readonly links: LinkChecked[] = [];

  constructor(
    /** `--block-budget`: the largest embedded block not flagged. */
    readonly blockBudgetBytes: number,
    readonly capBytes = RESULT_CAP_BYTES,
  ) {}
}

/** A listed resource as the walk saw it, for `WalkRecord.addResource`. */
export interface ResourceSeen {
  entry: Record<string, unknown>;
  uri: string;
  read: ResourceSize['read'];
  /** Bytes of the whole read's answer, when it was read whole. */
  measured?: number;
  /** Estimated from the listed size (listedWireBytes). */
  estimated?: number;
  partsTemplate: boolean;
  nearCapBytes: number;
}

/** Adds one listed resource to `record`. */
export function recordResource(record: WalkRecord, seen: ResourceSeen): void {
  const { entry } = seen;
  const row: ResourceSize = {
    uri: seen.uri,
    measured: seen.measured !== undefined,
    read: seen.read,
  };
  if (typeof entry['name'] === 'string') row.name = entry['name'];
  if (typeof entry['mimeType'] === 'string') row.mimeType = entry['mimeType'];
  if (typeof entry['size'] === 'number') row.listedSize = entry['size'];
  const wire = seen.measured ?? seen.estimated;
  if (wire !== undefined) {
    row.wireBytes = wire;
    row.sizeClass = sizeClassOf(
      wire,
      record.blockBudgetBytes,
      seen.partsTemplate,
      seen.nearCapBytes,
    );
  }
  record.resources.push(row);
}
