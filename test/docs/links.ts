/** Links as written in markdown and in built HTML, for the docs site's test. */

/** The markdown without its code: fenced blocks and code spans hold no links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of the inline links and images of a markdown text (`[text](href "title")`). */
export function markdownLinks(markdown: string): string[] {
  const text = withoutCode(markdown);
  return [
    ...text.matchAll(/\]\(\s*<?([^()\s>]+(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+"[^"]*")?\s*\)/g),
  ].map((m) => m[1] as string);
}

/** Whether a link leaves the site (a scheme such as https: or mailto:). */
export function isExternal(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

export function decodeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#') && name !== '#39') return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name] ?? whole;
  });
}

/** The `href` and `src` values of an HTML page, entities decoded. */
export function htmlLinks(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => decodeEntities(m[1] as string));
}

/** The `id`s an HTML page defines: what `#anchor` can point at. */
export function htmlIds(html: string): Set<string> {
  return new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decodeEntities(m[1] as string)));
}

/** The text of the page's first `<h1>`, tags and the permalink anchor left out. */
export function h1Text(html: string): string | undefined {
  const inner = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
  if (inner === undefined) return undefined;
  const text = inner.replace(/<a class="header-anchor"[\s\S]*?<\/a>/g, '').replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .replace(/\u200b/g, '')
    .trim();
}

/** A `# Title` line as text: code spans and escapes written out as they show. */
export function titleText(line: string): string {
  return line
    .replace(/^# /, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1')
    .trim();
}

/** GitHub's anchor for a heading of a markdown file shown on GitHub (the README). */
export function githubSlug(heading: string): string {
  return titleText(`# ${heading}`)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
