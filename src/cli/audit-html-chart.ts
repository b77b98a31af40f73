/**
 * The chart of the HTML report: every resource whose size is known, as a dot on a log scale of
 * bytes on the wire, one row per class (embedded, linked, in parts, too large), with the block
 * budget and the 10 MiB cap drawn across. Inline SVG styled by the report's classes: no script,
 * no external reference.
 */
import { SIZE_CLASSES, type ResourceSize, type SizeClass } from './audit-record.js';
import { htmlText } from './html-text.js';

/** Dots drawn at most; the table below the chart lists every resource. */
export const MAX_DOTS = 5000;

export const CLASS_LABELS: Record<SizeClass, string> = {
  embedded: 'embedded',
  linked: 'linked',
  'in-parts': 'in parts',
  'too-large': 'too large',
};

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** `2^e` bytes as a tick label: `32 KiB`. */
function powerLabel(e: number): string {
  return `${2 ** (e % 10)} ${UNITS[Math.floor(e / 10)] ?? `x2^${e}`}`;
}

/** Bytes for a tooltip: exact below 1 KiB, else with one decimal. */
export function bytesLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${UNITS[unit]} (${bytes} bytes)`;
}

/** Bytes in short: `1 MiB`, `2.7 GiB`. */
export function shortBytes(bytes: number): string {
  return bytesLabel(bytes).split(' (')[0] as string;
}

/**
 * The largest size the scale reaches (2^60 bytes, 1 EiB): a server may list any number, and
 * `Infinity` or a size near `Number.MAX_VALUE` would give an axis without end.
 */
export const CHART_CEILING_BYTES = 2 ** 60;

const onScale = (bytes: number): number =>
  Number.isFinite(bytes) ? Math.min(CHART_CEILING_BYTES, Math.max(1, bytes)) : CHART_CEILING_BYTES;

const WIDTH = 960;
const LEFT = 150;
const RIGHT = 30;
const TOP = 48;
const ROW = 56;
const AXIS = 40;

export interface ChartInput {
  resources: readonly ResourceSize[];
  blockBudgetBytes: number;
  capBytes: number;
}

/** The `<svg>` element of the chart (always drawn: axes and caps even without a resource). */
export function sizeChart(input: ChartInput): string {
  const sized = input.resources.filter(
    (r): r is ResourceSize & { wireBytes: number; sizeClass: SizeClass } =>
      r.wireBytes !== undefined && r.sizeClass !== undefined,
  );
  // Loops, not Math.min(...values): a list may hold more resources than a call has stack for.
  let lowest = 1024;
  let largest = Math.max(input.capBytes * 2, input.blockBudgetBytes * 2);
  for (const r of sized) {
    const value = onScale(r.wireBytes);
    lowest = Math.min(lowest, value);
    largest = Math.max(largest, value);
  }
  const loExp = Math.floor(Math.log2(lowest) / 10) * 10;
  const highest = onScale(largest);
  const hiExp = Math.ceil(Math.log2(highest * 1.25));
  const plot = WIDTH - LEFT - RIGHT;
  const x = (bytes: number): number => {
    const e = Math.min(hiExp, Math.max(loExp, Math.log2(onScale(bytes))));
    return LEFT + ((e - loExp) / (hiExp - loExp)) * plot;
  };
  const height = TOP + SIZE_CLASSES.length * ROW + AXIS;
  const bottom = TOP + SIZE_CLASSES.length * ROW;
  const parts: string[] = [];
  SIZE_CLASSES.forEach((cls, i) => {
    const y = TOP + i * ROW;
    const count = sized.filter((r) => r.sizeClass === cls).length;
    parts.push(
      `<rect class="row ${cls}" x="${LEFT}" y="${y}" width="${plot}" height="${ROW}"/>`,
      `<text class="label" x="${LEFT - 10}" y="${y + ROW / 2 + 4}" text-anchor="end">${CLASS_LABELS[cls]} (${count})</text>`,
    );
  });
  for (let e = loExp; e <= hiExp; e += 5) {
    const tx = x(2 ** e).toFixed(1);
    parts.push(
      `<line class="tick" x1="${tx}" y1="${TOP}" x2="${tx}" y2="${bottom + 5}"/>`,
      `<text class="axis" x="${tx}" y="${bottom + 18}" text-anchor="middle">${powerLabel(e)}</text>`,
    );
  }
  parts.push(
    `<text class="axis" x="${LEFT + plot / 2}" y="${bottom + 34}" text-anchor="middle">bytes on the wire of a whole read (log scale); a hollow dot is estimated from the listed size</text>`,
  );
  const caps: Array<[number, string, number]> = [
    [input.blockBudgetBytes, `block budget ${shortBytes(input.blockBudgetBytes)}`, TOP - 26],
    [input.capBytes, `stdio cap ${shortBytes(input.capBytes)}`, TOP - 10],
  ];
  for (const [bytes, label, ly] of caps) {
    const cx = x(bytes).toFixed(1);
    parts.push(
      `<line class="cap" x1="${cx}" y1="${ly + 4}" x2="${cx}" y2="${bottom}"/>`,
      `<text class="cap-label" x="${cx}" y="${ly}" text-anchor="middle">${htmlText(label)}</text>`,
    );
  }
  const rowOf = new Map(SIZE_CLASSES.map((cls, i) => [cls, i]));
  sized.slice(0, MAX_DOTS).forEach((r, i) => {
    const row = rowOf.get(r.sizeClass) as number;
    const jitter = (((i * 37) % 9) - 4) * 4;
    const cy = TOP + row * ROW + ROW / 2 + jitter;
    const how = r.measured ? 'read' : 'from its listed size';
    const title = `${r.uri}: ${bytesLabel(r.wireBytes)}, ${how}`;
    parts.push(
      `<circle class="dot ${r.sizeClass}${r.measured ? '' : ' est'}" cx="${x(r.wireBytes).toFixed(1)}" cy="${cy}" r="4.5"><title>${htmlText(title)}</title></circle>`,
    );
  });
  if (sized.length === 0) {
    parts.push(
      `<text class="empty" x="${LEFT + plot / 2}" y="${TOP + (SIZE_CLASSES.length * ROW) / 2}" text-anchor="middle">no resource size known</text>`,
    );
  }
  const aria = `Resource sizes against the block budget and the stdio cap: ${SIZE_CLASSES.map((cls) => `${sized.filter((r) => r.sizeClass === cls).length} ${CLASS_LABELS[cls]}`).join(', ')}`;
  return `<svg id="size-chart" role="img" aria-label="${htmlText(aria)}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}">${parts.join('')}</svg>`;
}
