/**
 * The host's limit on one result's text: the bridge's own lines included, images and audio not
 * counted. Over it, text is cut at a boundary that keeps UTF-8 and JSON valid, later text is left
 * out, and one closing note says how to read the rest (`read_resource` with offset/length).
 */
import { utf8Length } from '../../content/index.js';
import { BYTES_PER_TOKEN } from '../../host/index.js';
import type { ResultLimit } from '../profiles/index.js';
import type { Decision } from './decisions.js';
import { isJsonContainer, jsonCut } from './json-cut.js';
import { restCall } from './notes.js';
import { withBody, type OutItem } from './out-item.js';

export interface LimitContext {
  readToolName: string;
  /** Keeps a text that has no URI of its own and names where the rest can be read; optional. */
  spill?: ((text: string, mimeType: string) => string | undefined) | undefined;
}

interface Room {
  chars: number;
  bytes: number;
}

const encoder = new TextEncoder();

export function roomOf(limit: ResultLimit): Room {
  return {
    chars: limit.chars ?? Infinity,
    bytes: limit.tokens === undefined ? Infinity : limit.tokens * BYTES_PER_TOKEN,
  };
}

const costOf = (text: string): Room => ({
  chars: text.length,
  bytes: Number.isFinite(text.length) ? utf8Length(text) : 0,
});
const fits = (c: Room, room: Room): boolean => c.chars <= room.chars && c.bytes <= room.bytes;
const minus = (room: Room, c: Room): Room => ({
  chars: room.chars - c.chars,
  bytes: room.bytes - c.bytes,
});

/** The longest prefix of `text` within `bytes` UTF-8 bytes, never splitting a character. */
export function prefixWithinBytes(text: string, bytes: number): string {
  return text.slice(0, fitIndex(text, { chars: Infinity, bytes }));
}

/** The longest prefix of `text` within `room`, never splitting a surrogate pair. */
function fitIndex(text: string, room: Room): number {
  let i = Math.max(0, Math.min(text.length, Math.floor(room.chars)));
  if (i > 0 && i < text.length) {
    const prev = text.charCodeAt(i - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) i--;
  }
  if (Number.isFinite(room.bytes) && utf8Length(text.slice(0, i)) > room.bytes) {
    // encodeInto stops before a character that does not fit whole.
    i = encoder.encodeInto(text.slice(0, i), new Uint8Array(Math.max(0, room.bytes))).read;
  }
  return i;
}

interface Cut {
  item: OutItem;
  kept: string;
  /** Where the rest starts in the body (UTF-16 index), and the body's whole size in bytes. */
  restAt: number;
  what: string;
}

/** Cuts a body to `room`: a JSON container after a whole member, other text after a line when it can. */
function cutBody(
  body: string,
  room: Room,
  mimeType: string | undefined,
): { kept: string; restAt: number; what: string } {
  const at = fitIndex(body, room);
  const jsonish =
    mimeType === undefined || /json/i.test(mimeType) || mimeType.startsWith('text/plain');
  if (jsonish && isJsonContainer(body)) {
    // Leave room for the closer (one ASCII character).
    const cut = jsonCut(body, at);
    if (cut === undefined)
      return {
        kept: '',
        restAt: 0,
        what: 'the JSON text left out whole (not even one member fits)',
      };
    return {
      kept: body.slice(0, cut.end) + cut.closer,
      restAt: cut.end,
      what: `the JSON text cut after ${cut.kept} of its ${cut.total} top-level members and closed`,
    };
  }
  const newline = body.lastIndexOf('\n', at - 1);
  const end = newline >= Math.floor(at / 2) && at < body.length ? newline + 1 : at;
  return { kept: body.slice(0, end), restAt: end, what: 'the text cut' };
}

function restLine(cut: Cut, ctx: LimitContext, decisions: Decision[]): string {
  const { item, restAt } = cut;
  const body = item.text?.body ?? '';
  const mime = item.text?.mimeType ?? 'text/plain';
  const uri = item.text?.uri ?? ctx.spill?.(body, mime);
  const offset = utf8Length(body.slice(0, restAt));
  const total = item.text?.size ?? utf8Length(body);
  decisions.push({
    uri: uri ?? '',
    action: 'truncated',
    reason: `over the host's limit: ${cut.what}; ${total - offset} of ${total} bytes left out`,
    mimeType: mime,
    bytes: total,
    block: item.source,
  });
  if (uri === undefined)
    return `- block ${item.source}: ${cut.what}; ${total - offset} of ${total} bytes left out (not kept anywhere: ask the tool for less)`;
  return `- ${uri}: ${cut.what}; bytes ${offset}-${total} left out, read them with ${restCall(ctx.readToolName, uri, offset, total - offset)}`;
}

function noteText(limitText: string, lines: string[], dropped: number): string {
  const shownLines = lines.slice(0, 5);
  const more = lines.length - shownLines.length + dropped;
  return `[mcpkit bridge: this result was cut to the host's limit (${limitText}).\n${shownLines.join('\n')}${more > 0 ? `\n- ${more} more block(s) left out; see _meta["dev.mcpkit/decisions"]` : ''}]`;
}

/**
 * Applies the limit to `items`; returns them unchanged when within it. Pushes a decision for each
 * cut and each block left out.
 */
export function applyLimit(
  items: OutItem[],
  limit: ResultLimit,
  ctx: LimitContext,
  decisions: Decision[],
): OutItem[] {
  const room = roomOf(limit);
  let total: Room = { chars: 0, bytes: 0 };
  for (const item of items) {
    if (item.text) {
      const c = costOf(item.text.header + item.text.body);
      total = { chars: total.chars + c.chars, bytes: total.bytes + c.bytes };
    }
  }
  if (fits(total, room)) return items;
  const limitText = [
    limit.chars !== undefined ? `${limit.chars} characters` : undefined,
    limit.tokens !== undefined ? `about ${limit.tokens} tokens` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  // Planned up to four times (the note's own size is known only once planned): spill once per text.
  const spilled = new Map<string, string | undefined>();
  const spill = ctx.spill;
  const once: LimitContext = {
    readToolName: ctx.readToolName,
    spill: spill
      ? (text, mime) => {
          if (!spilled.has(text)) spilled.set(text, spill(text, mime));
          return spilled.get(text);
        }
      : undefined,
  };
  let reserve: Room = { chars: 0, bytes: 0 };
  for (let attempt = 0; attempt < 4; attempt++) {
    const scratch: Decision[] = [];
    const { out, note } = plan(items, minus(room, reserve), once, scratch, limitText);
    const noteCost = costOf(note);
    if (fits(noteCost, reserve) || attempt === 3) {
      decisions.push(...scratch);
      const shortNote = fits(noteCost, room) ? note : note.slice(0, fitIndex(note, room));
      out.push({
        block: { type: 'text', text: shortNote },
        source: items.length ? (items[items.length - 1] as OutItem).source : 0,
      });
      return out;
    }
    reserve = { chars: noteCost.chars + 1, bytes: noteCost.bytes + 1 };
  }
  return items;
}

function plan(
  items: OutItem[],
  room: Room,
  ctx: LimitContext,
  decisions: Decision[],
  limitText: string,
): { out: OutItem[]; note: string } {
  const out: OutItem[] = [];
  const lines: string[] = [];
  let left = room;
  let cutDone = false;
  let dropped = 0;
  for (const item of items) {
    if (!item.text) {
      out.push(item);
      continue;
    }
    const whole = costOf(item.text.header + item.text.body);
    if (!cutDone && fits(whole, left)) {
      out.push(item);
      left = minus(left, whole);
      continue;
    }
    if (!cutDone) {
      cutDone = true;
      const headerCost = costOf(item.text.header);
      if (fits(headerCost, left)) {
        const r = cutBody(item.text.body, minus(left, headerCost), item.text.mimeType);
        const cut: Cut = { item, ...r };
        lines.push(restLine(cut, ctx, decisions));
        if (r.kept !== '')
          out.push({
            ...item,
            block: withBody(item, r.kept),
            text: { ...item.text, body: r.kept },
          });
        left = { chars: 0, bytes: 0 };
        continue;
      }
    }
    dropped++;
    const uri = item.text.uri ?? '';
    const bytes = item.text.size ?? utf8Length(item.text.body);
    decisions.push({
      uri,
      action: 'dropped',
      reason: `over the host's limit (${limitText}): left out after the cut`,
      ...(item.text.mimeType ? { mimeType: item.text.mimeType } : {}),
      bytes,
      block: item.source,
    });
    if (uri) {
      lines.push(
        `- ${uri}: left out whole; read it with ${restCall(ctx.readToolName, uri, 0, bytes)}`,
      );
      dropped--;
    }
  }
  return { out, note: noteText(limitText, lines, dropped) };
}
