/**
 * Whether the bytes contradict a declared MIME type. Only a clear contradiction counts: magic
 * numbers of another format, or text where a binary image, audio, video or PDF was declared.
 * Containers (zip-based office files, ogg, mp4) and aliases (`image/jpg`) are not contradictions.
 * Bytes that look like text (a UTF-8/16/32 byte order mark, or UTF-8 without controls) declared
 * as a text type are never contradicted by a sniff: weak signatures match text too.
 */
import { isTextMimeType, looksLikeText, sniffMime } from '../content/index.js';

const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/x-icon': 'image/vnd.microsoft.icon',
  'audio/mp3': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-flac': 'audio/flac',
  'application/x-zip-compressed': 'application/zip',
  'application/x-gzip': 'application/gzip',
  'text/xml': 'application/xml',
  'application/x-pdf': 'application/pdf',
};

/** Formats that are containers for others: a sniffed container says little about the contents. */
const CONTAINERS = new Set(['application/zip', 'application/xml', 'application/x-cfb']);

function essence(mime: string): string {
  const semi = mime.indexOf(';');
  const base = (semi < 0 ? mime : mime.slice(0, semi)).trim().toLowerCase();
  return ALIASES[base] ?? base;
}

/** `video/mp4` and `audio/mp4`, `application/ogg` and `audio/ogg`: one container, two names. */
function sameMedia(a: string, b: string): boolean {
  const [ta, sa] = a.split('/') as [string, string];
  const [tb, sb] = b.split('/') as [string, string];
  const media = new Set(['audio', 'video', 'application']);
  const strip = (s: string): string => s.replace(/^x-/, '');
  return media.has(ta) && media.has(tb) && strip(sa) === strip(sb);
}

/** True when `sniffed` (from magic numbers) is compatible with `declared`. */
export function mimeCompatible(declared: string, sniffed: string): boolean {
  const d = essence(declared);
  const s = essence(sniffed);
  if (d === s || d === 'application/octet-stream' || d === '') return true;
  // A sniffed container (zip, xml, OLE) may hold the declared format; a declared zip may be a docx.
  if (CONTAINERS.has(s)) return true;
  if (d === 'application/zip' && s.startsWith('application/')) return true;
  return sameMedia(d, s);
}

/** Declared types whose bytes are never plain text. */
function declaredBinary(mime: string): boolean {
  const d = essence(mime);
  if (d === 'image/svg+xml') return false;
  return /^(image|audio|video)\//.test(d) || d === 'application/pdf';
}

/** Byte order marks of UTF-32 (before UTF-16: FF FE 00 00 starts with FF FE), UTF-8, UTF-16. */
const TEXT_BOMS = [
  [0x00, 0x00, 0xfe, 0xff],
  [0xff, 0xfe, 0x00, 0x00],
  [0xef, 0xbb, 0xbf],
  [0xfe, 0xff],
  [0xff, 0xfe],
];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((b, i) => bytes[at + i] === b);
}

/** Whether the bytes open with a UTF-8, UTF-16 or UTF-32 byte order mark. */
export function hasTextBom(bytes: Uint8Array): boolean {
  return TEXT_BOMS.some((bom) => startsWith(bytes, bom));
}

// Bitrates (kbit/s) by MPEG version (1, else 2/2.5) and layer (I, II, III); sample rates by version.
const BITRATES: Record<string, number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

/** The length of the MPEG audio frame whose header is at `at`, or undefined when it is not one. */
function mpegFrameLength(bytes: Uint8Array, at: number): number | undefined {
  const [b0, b1, b2] = [bytes[at], bytes[at + 1], bytes[at + 2]];
  if (b0 !== 0xff || b1 === undefined || b2 === undefined || (b1 & 0xe0) !== 0xe0) return undefined;
  const version = (b1 >> 3) & 3; // 3: MPEG 1, 2: MPEG 2, 0: MPEG 2.5, 1: reserved
  const layer = 4 - ((b1 >> 1) & 3); // 1, 2, 3; 4 is reserved
  const rate = SAMPLE_RATES[version]?.[(b2 >> 2) & 3];
  if (rate === undefined || layer === 4) return undefined;
  const table = BITRATES[`${version === 3 ? 1 : 2}-${version !== 3 && layer === 3 ? 2 : layer}`];
  const kbps = table?.[b2 >> 4];
  if (!kbps) return undefined; // free format or a bad index
  const padding = (b2 >> 1) & 1;
  if (layer === 1) return (Math.floor((12 * kbps * 1000) / rate) + padding) * 4;
  const slots = layer === 3 && version !== 3 ? 72 : 144;
  return Math.floor((slots * kbps * 1000) / rate) + padding;
}

/**
 * Whether `audio/mpeg` from file-type is more than its weak frame-sync match (11 set bits, which
 * UTF-16 text and many binaries have): an ID3 tag, or a second frame where the first one ends.
 */
function strongMpeg(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0x49, 0x44, 0x33])) return true;
  const length = mpegFrameLength(bytes, 0);
  return length !== undefined && mpegFrameLength(bytes, length) !== undefined;
}

/** Why the bytes contradict `declared`, or undefined when they do not. */
export async function mimeContradiction(
  declared: string,
  bytes: Uint8Array,
): Promise<string | undefined> {
  if (bytes.length === 0) return undefined;
  if (isTextMimeType(declared) && (hasTextBom(bytes) || looksLikeText(bytes))) return undefined;
  let sniffed = await sniffMime(bytes);
  if (sniffed === 'audio/mpeg' && !strongMpeg(bytes)) sniffed = undefined;
  if (sniffed !== undefined && sniffed !== 'text/plain') {
    return mimeCompatible(declared, sniffed)
      ? undefined
      : `declared ${declared}, but the bytes are ${sniffed}`;
  }
  if (declaredBinary(declared) && looksLikeText(bytes))
    return `declared ${declared}, but the bytes are text`;
  return undefined;
}
