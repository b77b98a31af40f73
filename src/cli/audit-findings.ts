/** What `mcpkit audit` reports: findings, their codes and severities, and the log they go to. */

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  severity: Severity;
  code: FindingCode;
  /** Our words; server text in it is quoted as JSON (the terminal form escapes the rest). */
  message: string;
  uri?: string;
  name?: string;
  method?: string;
  /** A JSON pointer into the answer (RFC 6901), e.g. `/contents/0/blob`. */
  path?: string;
}

/**
 * Every code and its usual severity. Two depend on the case: `result-over-cap` is an error over
 * stdio and a warning over HTTP or for a listed size; `request-failed` is a warning for a prompt
 * got with guessed arguments (completions or placeholders).
 */
export const FINDING_CODES = {
  'blob-invalid-base64': 'error',
  'link-unresolved': 'error',
  'link-read-failed': 'error',
  'result-over-cap': 'error',
  'missing-result-type': 'error',
  'missing-cache-hints': 'error',
  'template-invalid': 'error',
  'uri-invalid': 'error',
  'schema-violation': 'error',
  /** A request for something the server listed (a list page, a read, a prompt, a call) failed. */
  'request-failed': 'error',
  /** A list's cursor came back a second time: its pages never end. */
  'pagination-loop': 'error',
  /**
   * A list past --max-list-items or --max-list-bytes, or a cursor over --max-cursor-bytes: the
   * list was walked up to there (not a full audit).
   */
  'list-too-large': 'error',
  /** The server could not be reached, or went away during the walk. */
  unreachable: 'error',
  /** Requests in a row timed out: the rest of the walk was skipped (not a full audit). */
  'walk-stopped': 'error',
  'blob-missing-mime': 'warning',
  'blob-noncanonical-base64': 'warning',
  'mime-mismatch': 'warning',
  'embed-over-budget': 'warning',
  'legacy-not-found-code': 'warning',
  /** A listed `size` that the bytes read contradict. */
  'size-mismatch': 'warning',
  /** What the client noticed on the wire that no other finding covers (an unparsable line…). */
  'client-warning': 'warning',
  'name-reused': 'info',
  /** A link not checked: an uncovered http(s) link without --fetch-urls, or the budget spent. */
  'link-not-checked': 'info',
  /**
   * What was not walked because a budget was spent: --budget (bytes), --max-requests or
   * --max-requests-per-kind (the finding names it and what was skipped).
   */
  'budget-spent': 'info',
  /** A tool named by --call that the server does not list (and refused to call). */
  'unknown-tool': 'warning',
  /** A tool named by --call answered `isError: true` (a result, not a failure). */
  'tool-error': 'info',
} as const satisfies Record<string, Severity>;

export type FindingCode = keyof typeof FINDING_CODES;

/** Findings after which the report is not complete: part of the server was not walked. */
export const INCOMPLETE_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'unreachable',
  'walk-stopped',
  'budget-spent',
  'list-too-large',
  'pagination-loop',
]);

export type FindingInput = Omit<Finding, 'severity'> & { severity?: Severity };

export interface Summary {
  error: number;
  warning: number;
  info: number;
}

/** Findings in the order they were made; an identical one is kept once. */
export class FindingLog {
  private readonly items: Finding[] = [];
  private readonly seen = new Set<string>();

  add(input: FindingInput): void {
    const finding: Finding = {
      severity: input.severity ?? FINDING_CODES[input.code],
      code: input.code,
      message: input.message,
    };
    if (input.uri !== undefined) finding.uri = input.uri;
    if (input.name !== undefined) finding.name = input.name;
    if (input.method !== undefined) finding.method = input.method;
    if (input.path !== undefined) finding.path = input.path;
    const key = JSON.stringify(finding);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(finding);
  }

  get findings(): readonly Finding[] {
    return this.items;
  }

  has(code: FindingCode): boolean {
    return this.items.some((f) => f.code === code);
  }

  summary(): Summary {
    const out: Summary = { error: 0, warning: 0, info: 0 };
    for (const f of this.items) out[f.severity]++;
    return out;
  }
}

/** Where a finding was made: the request and what it was about. */
export interface Place {
  method: string;
  uri?: string;
  name?: string;
}

/** Appends a JSON pointer segment (RFC 6901 escaping). */
export function pointer(base: string, ...segments: Array<string | number>): string {
  let out = base;
  for (const s of segments) out += `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return out;
}

/**
 * The JSON pointer of a validator's field path (`result.contents[0].blob`,
 * `result["a b"][2]`), the root `result` dropped: `/contents/0/blob`; `content[1]` is `/content/1`.
 */
export function fieldToPointer(field: string): string {
  let i = field.search(/[.[]/);
  if (i < 0) i = field.length;
  const root = field.slice(0, i);
  const segments: string[] = root === 'result' || root === '' ? [] : [root];
  while (i < field.length) {
    if (field[i] === '.') {
      const m = /^\.([A-Za-z_$][\w$]*)/.exec(field.slice(i));
      if (!m) break;
      segments.push(m[1] as string);
      i += m[0].length;
    } else if (field[i] === '[') {
      const rest = field.slice(i);
      const index = /^\[(\d+)\]/.exec(rest);
      if (index) {
        segments.push(index[1] as string);
        i += index[0].length;
        continue;
      }
      const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
      if (!quoted) break;
      segments.push(JSON.parse(quoted[1] as string) as string);
      i += quoted[0].length;
    } else break;
  }
  return pointer('', ...segments);
}

/** A server value quoted for a message: JSON, cut at `max` characters. */
export function quote(value: unknown, max = 160): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
