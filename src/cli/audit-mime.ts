/**
 * Whether the bytes contradict a declared MIME type. Only a clear contradiction counts: magic
 * numbers of another format, or text where a binary image, audio, video or PDF was declared.
 * Containers (zip-based office files, ogg, mp4) and aliases (`image/jpg`) are not contradictions.
 */
import { looksLikeText, sniffMime } from '../content/index.js';

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

/** Why the bytes contradict `declared`, or undefined when they do not. */
export async function mimeContradiction(
  declared: string,
  bytes: Uint8Array,
): Promise<string | undefined> {
  if (bytes.length === 0) return undefined;
  const sniffed = await sniffMime(bytes);
  if (sniffed !== undefined && sniffed !== 'text/plain') {
    return mimeCompatible(declared, sniffed)
      ? undefined
      : `declared ${declared}, but the bytes are ${sniffed}`;
  }
  if (declaredBinary(declared) && looksLikeText(bytes))
    return `declared ${declared}, but the bytes are text`;
  return undefined;
}
