/**
 * Which URIs a server's lists cover: a listed resource, or a template that matches (RFC 6570,
 * query variables optional). A parts template (mcpkit serve's `file:///{+path}{?offset,length,
 * version}`: a query expression with `offset` and `length`) covers a resource too large to read
 * whole, which is then no `result-over-cap` finding.
 */
import { parseTemplate, type UriTemplate } from '../uri/index.js';

/** The query variables that make a template a parts template. */
const PART_VARIABLES = ['offset', 'length'];

export function isPartsTemplate(template: UriTemplate): boolean {
  return template.parts.some(
    (p) =>
      p.type === 'expression' &&
      (p.operator === '?' || p.operator === '&') &&
      PART_VARIABLES.every((name) => p.variables.some((v) => v.name === name)),
  );
}

/**
 * Matches of a URI against a template in one walk (a few seconds): every listed resource may be
 * matched against every template, and a server may list 50,000 of each (minutes of CPU).
 */
export const MAX_TEMPLATE_MATCHES = 10_000_000;

export class Coverage {
  private readonly uris = new Set<string>();
  private readonly templates: UriTemplate[] = [];
  private matches = 0;
  /** Set once the budget of matches is spent: templates cover nothing more from then on. */
  exhausted = false;

  constructor(readonly maxMatches = MAX_TEMPLATE_MATCHES) {}

  /** The first template that `wanted` picks and that matches `uri`, within the budget. */
  private match(uri: string, wanted: (t: UriTemplate) => boolean) {
    for (const t of this.templates) {
      if (!wanted(t)) continue;
      if (this.matches >= this.maxMatches) {
        this.exhausted = true;
        return undefined;
      }
      this.matches++;
      const values = t.match(uri);
      if (values !== undefined) return { template: t, values };
    }
    return undefined;
  }

  /** The `budget-spent` finding when the budget of matches was spent, else undefined. */
  spentMessage(): string | undefined {
    if (!this.exhausted) return undefined;
    return `template matching stopped after ${this.maxMatches} matches of a URI against a template (${this.templates.length} templates listed): from then on no template was taken to cover a URI, so a resource or link a template covers may be reported as uncovered`;
  }

  addResource(uri: string): void {
    this.uris.add(uri);
  }

  /** Adds a template; returns why it does not parse (the caller reports `template-invalid`). */
  addTemplate(template: string): string | undefined {
    try {
      this.templates.push(parseTemplate(template));
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** What covers `uri`: `resource`, the template's text, or undefined. */
  coveredBy(uri: string): string | undefined {
    if (this.uris.has(uri)) return 'a listed resource';
    const t = this.match(uri, () => true)?.template;
    return t ? `the template ${JSON.stringify(t.template)}` : undefined;
  }

  /** The parts template that can read `uri` in parts, if any. */
  partsTemplateFor(uri: string): string | undefined {
    return this.match(uri, isPartsTemplate)?.template.template;
  }

  /**
   * The URI of the first part of `uri` (`offset` 0, at most `length` bytes) through the parts
   * template that covers it, or undefined when none does.
   */
  firstPartUri(uri: string, length: number): string | undefined {
    const found = this.match(uri, isPartsTemplate);
    return found?.template.expand({ ...found.values, offset: 0, length });
  }
}
