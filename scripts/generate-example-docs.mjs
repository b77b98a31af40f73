#!/usr/bin/env node
/**
 * Writes the generated files of examples/docs: a 32x32 PNG icon, a one-page PDF and a 1.2 MB CSV
 * of synthetic request logs (large enough to be linked under the default 1 MiB block budget).
 * Deterministic: running it again writes the same bytes.
 *
 *   node scripts/generate-example-docs.mjs [outDir]   (default: examples/docs)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out =
  process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'docs');

// --- PNG ---------------------------------------------------------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 32x32 RGBA icon: a rounded teal square with a white "link" of two rings. */
function png() {
  const size = 32;
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0, then RGBA
    for (let x = 0; x < size; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const corner = Math.hypot(
        Math.max(0, Math.abs(cx - 16) - 12),
        Math.max(0, Math.abs(cy - 16) - 12),
      );
      const inside = corner <= 4;
      const ring = (ox) => Math.abs(Math.hypot(cx - ox, cy - 16) - 6) < 1.6;
      const white = inside && (ring(12) || ring(20));
      const [r, g, b, a] = !inside
        ? [0, 0, 0, 0]
        : white
          ? [255, 255, 255, 255]
          : [18, 128, 120, 255];
      row.set([r, g, b, a], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// --- PDF ---------------------------------------------------------------------------------------
function pdfText(s) {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** One A4 page of Helvetica text, with a correct cross-reference table. */
function pdf() {
  const lines = [
    [20, 'mcpkit: resources over MCP, embedded or linked'],
    [12, 'A server describes resources; mcpkit decides how their bytes reach the model.'],
    [12, 'Small files are embedded in results. Large ones are linked, with their size,'],
    [12, 'and the client reads them with resources/read when it needs them.'],
    [12, 'Budgets: 1 MiB per block and 4 MiB per result by default, never over the'],
    [12, 'transport cap (the stdio line limit or the HTTP body limit).'],
    [12, 'Paths are checked before any file is opened: no .., no absolute paths,'],
    [12, 'no NUL or backslash, no symbolic link that leaves the served folder.'],
  ];
  let stream = 'BT\n72 770 Td\n';
  for (const [i, [size, text]] of lines.entries()) {
    stream += `/F1 ${size} Tf\n${i === 0 ? '' : `0 -${i === 1 ? 36 : 18} Td\n`}(${pdfText(text)}) Tj\n`;
  }
  stream += 'ET\n';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}endstream`,
    '<< /Title (mcpkit overview) /Producer (scripts/generate-example-docs.mjs) >>',
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = [];
  for (const [i, obj] of objects.entries()) {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

// --- CSV ---------------------------------------------------------------------------------------
/** Synthetic request logs, ~1.2 MB, from a seeded generator (mulberry32). */
function csv(targetBytes = 1_250_000) {
  let seed = 0x6d63706b; // "mcpk"
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (items) => items[Math.floor(random() * items.length)];
  const uris = [
    'file:///notes/getting-started.md',
    'file:///notes/embed-or-link.md',
    'file:///notes/transports.md',
    'file:///notes/security.md',
    'file:///data/defaults.json',
    'file:///images/mcpkit.png',
    'file:///papers/overview.pdf',
  ];
  const methods = [
    'resources/read',
    'resources/read',
    'resources/list',
    'tools/call',
    'prompts/get',
    'completion/complete',
  ];
  const lines = ['timestamp,method,target,transport,protocol,status,bytes,decision,duration_ms'];
  let size = lines[0].length + 1;
  let time = Date.UTC(2026, 0, 5, 8, 0, 0);
  while (size < targetBytes) {
    time += Math.floor(random() * 4000);
    const method = pick(methods);
    const target =
      method === 'tools/call'
        ? pick(['search', 'read'])
        : method === 'prompts/get'
          ? pick(['review-file', 'survey'])
          : method === 'resources/list'
            ? '-'
            : pick(uris);
    const status = random() < 0.97 ? 'ok' : pick(['-32602', '-32603']);
    const bytes = status === 'ok' ? Math.floor(200 + random() * 60000) : 180;
    const decision =
      method === 'resources/read' || status !== 'ok' ? '-' : pick(['embed', 'embed', 'link']);
    const line = [
      new Date(time).toISOString(),
      method,
      target,
      random() < 0.6 ? 'stdio' : 'http',
      random() < 0.7 ? '2026-07-28' : '2025-11-25',
      status,
      bytes,
      decision,
      (0.2 + random() * 12).toFixed(2),
    ].join(',');
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

const files = {
  'images/mcpkit.png': png(),
  'papers/overview.pdf': pdf(),
  'data/requests.csv': csv(),
};
for (const [name, bytes] of Object.entries(files)) {
  const path = join(out, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  process.stdout.write(`${name}: ${bytes.length} bytes\n`);
}
