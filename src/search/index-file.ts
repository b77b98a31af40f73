/**
 * A saved index, as bytes (the caller writes and reads the file): a JSON header (the paths, the
 * terms and their list lengths, and what the caller keeps beside, `extra`), then the postings
 * in typed-array blocks, widest first so that each block is aligned.
 */
import { Postings } from './postings.js';
import { TextIndex } from './text-index.js';

const MAGIC = 'MCPKIDX1';
const FORMAT = 1;

interface Header {
  format: number;
  paths: string[];
  tokens: number;
  text: [string, number][];
  names: [string, number][];
  extra: unknown;
}

/** The bytes of `index` with `extra` (any JSON) beside it. */
export function encodeIndex(index: TextIndex, extra: unknown): Uint8Array {
  const state = index.state();
  const lists = (map: ReadonlyMap<string, Postings>): [string, Postings][] =>
    [...map].filter(([, list]) => list.length > 0);
  const text = lists(state.text);
  const names = lists(state.names);
  const header: Header = {
    format: FORMAT,
    paths: [...state.paths],
    tokens: state.tokens,
    text: text.map(([term, list]) => [term, list.length]),
    names: names.map(([term, list]) => [term, list.length]),
    extra,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const sum = (of: [string, Postings][]): number => of.reduce((n, [, l]) => n + l.length, 0);
  const n = state.paths.length;
  const textPostings = sum(text);
  const namePostings = sum(names);
  const headerEnd = 12 + Math.ceil(json.length / 4) * 4;
  const size =
    headerEnd +
    4 * (2 * n + textPostings + namePostings) +
    2 * textPostings +
    textPostings +
    namePostings;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, json.length, true);
  bytes.set(json, 12);
  let at = headerEnd;
  const put = <T extends Uint32Array | Uint16Array | Uint8Array>(from: T, width: number): void => {
    bytes.set(new Uint8Array(from.buffer, from.byteOffset, from.length * width), at);
    at += from.length * width;
  };
  put(state.lengths, 4);
  put(state.distinct, 4);
  for (const [, list] of text) put(list.ids.subarray(0, list.length), 4);
  for (const [, list] of names) put(list.ids.subarray(0, list.length), 4);
  for (const [, list] of text) put(list.lines.subarray(0, list.length), 2);
  for (const [, list] of text) put(list.counts.subarray(0, list.length), 1);
  for (const [, list] of names) put(list.counts.subarray(0, list.length), 1);
  return bytes;
}

/** The index and the `extra` saved with it; undefined when the bytes are not a saved index. */
export function decodeIndex(bytes: Uint8Array): { index: TextIndex; extra: unknown } | undefined {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC)
    return undefined;
  const own = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const view = new DataView(own.buffer, own.byteOffset, own.byteLength);
  const headerBytes = view.getUint32(8, true);
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(own.subarray(12, 12 + headerBytes))) as Header;
  } catch {
    return undefined;
  }
  if (header.format !== FORMAT) return undefined;
  let at = own.byteOffset + 12 + Math.ceil(headerBytes / 4) * 4;
  const end = own.byteOffset + own.byteLength;
  const take = <T>(
    make: (buffer: ArrayBufferLike, offset: number, length: number) => T,
    count: number,
    width: number,
  ): T => {
    if (at + count * width > end) throw new RangeError('the saved index is cut short');
    const out = make(own.buffer, at, count);
    at += count * width;
    return out;
  };
  try {
    const n = header.paths.length;
    const u32 = (count: number) => take((b, o, l) => new Uint32Array(b, o, l), count, 4);
    const lengths = u32(n);
    const distinct = u32(n);
    const textIds = header.text.map(([, length]) => u32(length));
    const nameIds = header.names.map(([, length]) => u32(length));
    const textLines = header.text.map(([, length]) =>
      take((b, o, l) => new Uint16Array(b, o, l), length, 2),
    );
    const u8 = (count: number) => take((b, o, l) => new Uint8Array(b, o, l), count, 1);
    const textCounts = header.text.map(([, length]) => u8(length));
    const nameCounts = header.names.map(([, length]) => u8(length));
    const postings = (ids: Uint32Array, counts: Uint8Array, lines: Uint16Array): Postings =>
      Postings.of(ids, counts, lines);
    const text = header.text.map(([term], i): [string, Postings] => [
      term,
      postings(textIds[i]!, textCounts[i]!, textLines[i]!),
    ]);
    const names = header.names.map(([term], i): [string, Postings] => [
      term,
      postings(nameIds[i]!, nameCounts[i]!, new Uint16Array(nameIds[i]!.length)),
    ]);
    const index = TextIndex.of({
      paths: header.paths,
      lengths,
      distinct,
      tokens: header.tokens,
      text: new Map(text),
      names: new Map(names),
    });
    return { index, extra: header.extra };
  } catch {
    return undefined;
  }
}
