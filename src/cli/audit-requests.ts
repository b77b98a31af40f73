/**
 * The request budget of one audit walk (`--max-requests` in all, `--max-requests-per-kind`): the
 * byte budget leaves 1-byte reads nearly free, and prompts × arguments drive completions without
 * end. A kind is the request's method; link reads count apart (`resources/read (links)`) so that
 * a long list of resources does not leave the links unchecked. What was skipped for want of
 * budget is told in `budget-spent` findings, and the report is then not complete.
 */
import { quote, type FindingLog } from './audit-findings.js';

/** The kind of link reads (and --fetch-urls fetches). */
export const LINK_READS = 'resources/read (links)';

interface Skipped {
  kind: string;
  what: string;
  /** The budget spent, in the finding's words. */
  budget: string;
  count: number;
  /** The first few things skipped, quoted in the finding. */
  shown: string[];
}

const SHOWN = 3;

export class RequestBudget {
  used = 0;
  private readonly byKind = new Map<string, number>();
  private readonly skipped = new Map<string, Skipped>();

  constructor(
    readonly total: number,
    readonly perKind: number,
  ) {}

  /**
   * Takes one request of `kind`: true when it may be sent. Else `what` (e.g. "listed resource(s)
   * not read") is counted as skipped, `item` shown among the first few.
   */
  allow(kind: string, what: string, item?: string): boolean {
    const n = this.byKind.get(kind) ?? 0;
    if (this.used >= this.total) {
      this.skip(kind, what, `the budget of ${this.total} requests in all (--max-requests)`, item);
      return false;
    }
    if (n >= this.perKind) {
      const budget = `the budget of ${this.perKind} ${kind} requests (--max-requests-per-kind)`;
      this.skip(kind, what, budget, item);
      return false;
    }
    this.used++;
    this.byKind.set(kind, n + 1);
    return true;
  }

  /** Counts `what` as skipped because `budget` (in the finding's words) was spent. */
  skip(kind: string, what: string, budget: string, item?: string): void {
    const key = `${kind}\0${what}\0${budget}`;
    let entry = this.skipped.get(key);
    if (!entry) {
      entry = { kind, what, budget, count: 0, shown: [] };
      this.skipped.set(key, entry);
    }
    entry.count++;
    if (item !== undefined && entry.shown.length < SHOWN) entry.shown.push(item);
  }

  /** Whether anything was skipped. */
  get spent(): boolean {
    return this.skipped.size > 0;
  }

  /** One `budget-spent` finding per kind and thing skipped. */
  report(log: FindingLog): void {
    for (const s of this.skipped.values()) {
      const budget = s.budget;
      const shown = s.shown.map((item) => quote(item, 100));
      const more = s.count > shown.length ? ', …' : '';
      log.add({
        code: 'budget-spent',
        message: `${s.count} ${s.what}: ${budget} was spent${shown.length > 0 ? `: ${shown.join(', ')}${more}` : ''}`,
        method: s.kind === LINK_READS ? 'resources/read' : s.kind,
      });
    }
  }
}
