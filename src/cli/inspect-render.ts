/**
 * The human form of `mcpkit inspect`: every block rendered, every server-sent string escaped
 * (`shownText`) before it reaches the terminal.
 */
import type { DecodedContents, LinkOutcome, Resolution } from '../host/index.js';
import { decodedBase64Length } from '../protocol/base64.js';
import { shownText } from './terminal-text.js';

type Obj = Record<string, unknown>;
export type ReadEntry =
  { contents: DecodedContents; sha256: string } | { error: string; uri: string };

const s = (v: unknown): string =>
  shownText(typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));
const bytes = (n: number): string => `${n} byte${n === 1 ? '' : 's'}`;
const PREVIEW = 2000;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text body indented under its heading; long texts are cut (the JSON form has the digest). */
function body(text: string, indent = '    '): string {
  const cut =
    text.length > PREVIEW
      ? `${text.slice(0, PREVIEW)}\n… (${text.length - PREVIEW} more characters)`
      : text;
  return shownText(cut, { multiline: true })
    .split('\n')
    .map((line) => `${indent}${line}`)
    .join('\n');
}

function contentsLines(c: DecodedContents, what: string, indent = '  '): string[] {
  const out = [`${indent}${what} ${s(c.uri)}  ${s(c.mimeType)}  ${bytes(c.size)}`];
  for (const w of c.warnings) out.push(`${indent}  warning: ${s(w)}`);
  if (c.text !== undefined) out.push(body(c.text, `${indent}  `));
  else out.push(`${indent}  (binary)`);
  return out;
}

function outcomeLine(o: LinkOutcome): string {
  if (o.status === 'read')
    return `read, ${bytes(o.bytes ?? 0)}${o.source === 'fetch' ? ' (fetched by the host through the SSRF guard)' : ''}`;
  return `${o.status}: ${s(o.reason ?? '')}`;
}

export function renderBlocks(head: string, resolved: Resolution): string {
  const lines = [head];
  if (resolved.blocks.length === 0) lines.push('  (no content)');
  for (const entry of resolved.blocks) {
    if (entry.type === 'invalid') {
      lines.push(`  INVALID: ${s(entry.error)}`);
      continue;
    }
    if (entry.type === 'resource') {
      const r = (isObj(entry.block.resource) ? entry.block.resource : {}) as Obj;
      if (entry.contents) {
        lines.push(...contentsLines(entry.contents, 'resource (embedded, snapshot)'));
      } else
        lines.push(`  resource (embedded, snapshot) ${s(r['uri'])}  INVALID: ${s(entry.error)}`);
    } else if (entry.type === 'resource_link') {
      const { link, outcome } = entry;
      const facts = [
        link.mimeType ?? 'no MIME type',
        link.size === undefined ? 'no size' : bytes(link.size),
      ];
      lines.push(
        `  link ${s(link.uri)}  ${s(JSON.stringify(link.name))}  ${facts.map(s).join('  ')}`,
      );
      lines.push(`    → ${outcomeLine(outcome)}`);
      for (const c of outcome.contents ?? []) lines.push(...contentsLines(c, 'contents', '      '));
    } else {
      const b = entry.block as unknown as Obj;
      if (entry.type === 'text') lines.push('  text', body(String(b['text'] ?? '')));
      else {
        const data = typeof b['data'] === 'string' ? b['data'] : '';
        lines.push(
          `  ${s(entry.type)} ${s(b['mimeType'] ?? 'no MIME type')}  ${bytes(decodedBase64Length(data))} (base64 ${data.length})`,
        );
      }
    }
  }
  for (const w of resolved.warnings) lines.push(`  warning: ${s(w)}`);
  return lines.join('\n');
}

export function renderRead(uri: string, entries: readonly ReadEntry[]): string {
  const lines = [`read ${s(uri)}`];
  if (entries.length === 0) lines.push('  (no contents)');
  for (const e of entries) {
    if ('error' in e) lines.push(`  contents ${s(e.uri)}  INVALID: ${s(e.error)}`);
    else lines.push(...contentsLines(e.contents, 'contents'), `    sha256 ${e.sha256}`);
  }
  return lines.join('\n');
}

function section(title: string, items: unknown, line: (item: Obj) => string): string[] {
  const list = Array.isArray(items) ? (items as unknown[]) : [];
  return [
    `${title} (${list.length})`,
    ...list.map((i) => `  ${isObj(i) ? line(i) : `INVALID: ${s(i)}`}`),
  ];
}

export function renderOverview(data: Obj): string {
  const server = (data['server'] ?? {}) as Obj;
  const meta = (server['_meta'] ?? {}) as Obj;
  const info = (server['serverInfo'] ?? meta['io.modelcontextprotocol/serverInfo'] ?? {}) as Obj;
  const caps = Object.keys((server['capabilities'] ?? {}) as Obj);
  const lines = [
    `server ${s(info['name'] ?? 'unnamed')} ${s(info['version'] ?? '')}`.trimEnd(),
    `  protocol ${s(data['era'])}; capabilities: ${caps.length ? caps.map(s).join(', ') : 'none'}`,
  ];
  // Multi-line instructions keep their lines (every other control still escaped).
  if (typeof server['instructions'] === 'string')
    lines.push(`  instructions:\n${body(server['instructions'])}`);
  const opt = (v: unknown, f: (x: string) => string): string => (typeof v === 'string' ? f(v) : '');
  const size = (v: unknown): string => (typeof v === 'number' ? `  ${bytes(v)}` : '');
  lines.push(
    ...section(
      'resources',
      data['resources'],
      (r) =>
        `${s(r['uri'])}  ${s(r['name'])}${opt(r['mimeType'], (m) => `  ${s(m)}`)}${size(r['size'])}`,
    ),
    ...section(
      'resource templates',
      data['resourceTemplates'],
      (t) => `${s(t['uriTemplate'])}  ${s(t['name'])}${opt(t['mimeType'], (m) => `  ${s(m)}`)}`,
    ),
    ...section('prompts', data['prompts'], (p) => {
      // A list that broke its schema is shown as received: an argument may be anything.
      const args = Array.isArray(p['arguments']) ? (p['arguments'] as unknown[]) : [];
      const list = args
        .map((a) =>
          isObj(a) ? `${s(a['name'])}${a['required'] === true ? '' : '?'}` : `INVALID: ${s(a)}`,
        )
        .join(', ');
      return `${s(p['name'])}(${list})${opt(p['description'], (d) => `  ${s(d.split('\n')[0])}`)}`;
    }),
    ...section(
      'tools',
      data['tools'],
      (t) => `${s(t['name'])}${opt(t['description'], (d) => `  ${s(d.split('\n')[0])}`)}`,
    ),
  );
  return lines.join('\n');
}
