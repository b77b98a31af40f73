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

export class Coverage {
  private readonly uris = new Set<string>();
  private readonly templates: UriTemplate[] = [];

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
    const t = this.templates.find((t) => t.match(uri) !== undefined);
    return t ? `the template ${JSON.stringify(t.template)}` : undefined;
  }

  /** The parts template that can read `uri` in parts, if any. */
  partsTemplateFor(uri: string): string | undefined {
    return this.templates.find((t) => isPartsTemplate(t) && t.match(uri) !== undefined)?.template;
  }

  /**
   * The URI of the first part of `uri` (`offset` 0, at most `length` bytes) through the parts
   * template that covers it, or undefined when none does.
   */
  firstPartUri(uri: string, length: number): string | undefined {
    for (const t of this.templates) {
      const values = isPartsTemplate(t) ? t.match(uri) : undefined;
      if (values !== undefined) return t.expand({ ...values, offset: 0, length });
    }
    return undefined;
  }
}
