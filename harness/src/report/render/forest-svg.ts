/**
 * One question's answer as a picture (a forest plot): a row per runtime, its ratio as a dot and
 * its 95 % interval as a bar on a log axis, a line at 1 (the same), the sentence beside
 * it. Plain SVG drawn here rather than by a chart library in the page: the same file serves the
 * results site (inline), the docs (an image in Markdown) and a pull request, and needs no script.
 * A log axis because ratios are symmetric there: 2x and 0.5x sit equally far from 1.
 */
import type { AnswerRow, Question } from '../answers.ts';
import type { RatioReading } from '../../present/ratio-verdict.ts';
import { escapeHtml } from '../../present/html-escape.ts';
import { MARK_COLORS, RUNTIME_COLORS, SPARE_COLORS } from '../../present/palette.ts';

export type Domain = readonly [number, number];

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';
/** Layout in px: a row per runtime, the plot between the labels and the sentences. */
export const LAYOUT = {
  pad: 8,
  titleHeight: 22,
  /** Room above the first row for the label of the line at 1. */
  lineLabelHeight: 16,
  rowHeight: 24,
  labelWidth: 112,
  plotWidth: 280,
  gap: 14,
  axisHeight: 34,
  /** A generous width per character of 12 px text, so no sentence is cut off. */
  charWidth: 6.6,
} as const;

/** The ratios' range with 1 in it, widened a quarter each way on the log axis, at least 0.5x-2x. */
export function forestDomain(rows: readonly Pick<AnswerRow, 'ratio' | 'ci'>[]): Domain {
  const values = rows.flatMap((r) => [r.ratio, ...(r.ci ?? [])]).filter((v) => v > 0 && Number.isFinite(v));
  const low = Math.min(1, ...values);
  const high = Math.max(1, ...values);
  return [Math.min(0.5, low / 1.25), Math.max(2, high * 1.25)];
}

/** x of a ratio on the log axis spanning `domain` over [left, left + width]. */
export function logX(value: number, domain: Domain, left: number, width: number): number {
  const [low, high] = domain;
  return left + ((Math.log(value) - Math.log(low)) / (Math.log(high) - Math.log(low))) * width;
}

/** Tick values 1, 2, 5 × 10^k inside the domain; only the powers of ten when those are too many. */
export function logTicks(domain: Domain): number[] {
  const ticks: number[] = [];
  for (let k = Math.floor(Math.log10(domain[0])); k <= Math.ceil(Math.log10(domain[1])); k++) {
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** k).toPrecision(1));
      if (v >= domain[0] && v <= domain[1]) ticks.push(v);
    }
  }
  return ticks.length <= 7 ? ticks : ticks.filter((v) => Number.isInteger(Math.log10(v)) || v === 1);
}

const tickLabel = (v: number) => `${v >= 1 ? String(v) : String(Number(v.toPrecision(1)))}x`;

/** A runtime's colour as on every chart; a lane of no runtime of ours, a spare colour by its place. */
function colourOf(row: AnswerRow, index: number): string {
  return (RUNTIME_COLORS as Record<string, string>)[row.runtime] ?? SPARE_COLORS[index % SPARE_COLORS.length] ?? '#4a5568';
}

const n = (x: number) => Number(x.toFixed(1));

function rowSvg(row: AnswerRow, index: number, y: number, domain: Domain, plotLeft: number, textLeft: number): string {
  const { plotWidth, rowHeight } = LAYOUT;
  const x = (v: number) => n(logX(Math.min(domain[1], Math.max(domain[0], v)), domain, plotLeft, plotWidth));
  const colour = colourOf(row, index);
  const mid = n(y + rowHeight / 2);
  const verdict = VERDICT_CLASS[row.verdict.reading];
  // A dashed bar: the interval cannot size the ratio (too wide, or the cells could not tell).
  const inconclusive = row.verdict.reading === 'inconclusive' || row.verdict.reading === 'wide';
  const bar =
    row.ci === undefined
      ? ''
      : `<line class="interval" x1="${x(row.ci[0])}" x2="${x(row.ci[1])}" y1="${mid}" y2="${mid}" stroke="${colour}" stroke-width="2.5" stroke-linecap="round"${inconclusive ? ' stroke-dasharray="3 3" stroke-opacity="0.6"' : ''}/>`;
  const dot = mark(row.verdict.reading, x(row.ratio), mid, colour);
  return [
    `<g class="row" data-lane="${escapeHtml(row.lane)}" data-ratio="${row.ratio}"${row.ci === undefined ? '' : ` data-ci="${row.ci[0]} ${row.ci[1]}"`} data-verdict="${verdict}">`,
    `<title>${escapeHtml(row.sentence)}</title>`,
    `<text x="${LAYOUT.pad}" y="${mid + 4}" font-size="12" font-weight="600" fill="${colour}">${escapeHtml(row.lane)}</text>`,
    bar,
    dot,
    `<text class="sentence" x="${textLeft}" y="${mid + 4}" font-size="12" fill="#1a202c">${escapeHtml(row.sentence)}</text>`,
    '</g>',
  ].join('');
}

/** The class each reading carries (data-verdict), for tests and the page's own styles. */
const VERDICT_CLASS: Record<RatioReading, string> = {
  more: 'more',
  less: 'less',
  wide: 'too-uncertain-to-size',
  same: 'no-gain',
  'no-interval': 'no-interval',
  inconclusive: 'could-not-tell',
};

/**
 * One mark per meaning (the words of present/verdict-words.ts): a filled dot, faster or slower (its
 * bar dashed when too uncertain to size); a hollow dot, no gain (a narrow interval holding 1); a
 * hollow diamond, no interval to tell by; a hollow square (its bar dashed), could not tell. A
 * bystander waiting 77x less with no interval is not drawn like no gain.
 */
function mark(reading: RatioReading, cx: number, cy: number, colour: string): string {
  const stroke = `stroke="${colour}" stroke-width="2"`;
  if (reading === 'no-interval') {
    const r = 5.5;
    return `<path class="ratio" d="M${cx} ${n(cy - r)}L${n(cx + r)} ${cy}L${cx} ${n(cy + r)}L${n(cx - r)} ${cy}Z" fill="#fff" ${stroke}/>`;
  }
  if (reading === 'inconclusive')
    return `<rect class="ratio" x="${n(cx - 4)}" y="${n(cy - 4)}" width="8" height="8" fill="#fff" ${stroke}/>`;
  return `<circle class="ratio" cx="${cx}" cy="${cy}" r="4.5" fill="${reading === 'same' ? '#fff' : colour}" ${stroke}/>`;
}

/** The question as a self-contained SVG document (also valid inline in HTML). */
export function forestSvg(question: Question, options: { labelWidth?: number; ceiling?: { at: number; label: string } } = {}): string {
  const { pad, titleHeight, lineLabelHeight, rowHeight, plotWidth, gap, axisHeight, charWidth } = LAYOUT;
  const labelWidth = options.labelWidth ?? LAYOUT.labelWidth;
  const domain = forestDomain(question.rows);
  const plotLeft = pad + labelWidth;
  const textLeft = plotLeft + plotWidth + gap;
  const longest = Math.max(0, ...question.rows.map((r) => r.sentence.length));
  // At least as wide as the legend under the axis.
  const width = Math.ceil(Math.max(textLeft + longest * charWidth + pad, plotLeft + 740));
  const top = pad + titleHeight + lineLabelHeight;
  const bottom = top + question.rows.length * rowHeight;
  const height = bottom + axisHeight + pad;
  const one = n(logX(1, domain, plotLeft, plotWidth));
  const ticks = logTicks(domain).map((v) => {
    const x = n(logX(v, domain, plotLeft, plotWidth));
    return `<line x1="${x}" x2="${x}" y1="${bottom}" y2="${bottom + 4}" stroke="#718096"/><text class="tick" x="${x}" y="${bottom + 16}" font-size="11" text-anchor="middle" fill="#4a5568">${tickLabel(v)}</text>`;
  });
  const rows = question.rows.map((row, i) => rowSvg(row, i, top + i * rowHeight, domain, plotLeft, textLeft));
  const summary = question.rows.map((r) => r.sentence).join('. ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(`${question.title}. ${summary}`)}" ${FONT} data-question="${escapeHtml(question.id)}" data-domain="${n4(domain[0])} ${n4(domain[1])}">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text class="title" x="${pad}" y="${pad + 14}" font-size="14" font-weight="600" fill="#1a202c">${escapeHtml(question.title)}</text>`,
    `<line x1="${plotLeft}" x2="${plotLeft + plotWidth}" y1="${bottom}" y2="${bottom}" stroke="#718096"/>`,
    ...ticks,
    `<line class="one" x1="${one}" x2="${one}" y1="${top - 4}" y2="${bottom}" stroke="${MARK_COLORS.target}" stroke-dasharray="4 3"/>`,
    `<text x="${one}" y="${top - 6}" font-size="11" text-anchor="middle" fill="${MARK_COLORS.target}">1x: the same</text>`,
    ...ceilingLine(options.ceiling, domain, plotLeft, top, bottom),
    ...rows,
    `<text x="${plotLeft}" y="${bottom + 30}" font-size="10" fill="#718096">ratio, log scale; bar: 95 % interval; ● faster or slower (bar dashed: too uncertain to size); ○ no gain; □ could not tell; ◇ no interval</text>`,
    '</svg>',
  ].join('\n');
}

const n4 = (x: number) => Number(x.toPrecision(4));

/** A dotted line where the machine caps a ratio ("~2x: 2 CPUs"), when it falls inside the axis. */
function ceilingLine(
  ceiling: { at: number; label: string } | undefined,
  domain: Domain,
  plotLeft: number,
  top: number,
  bottom: number,
): string[] {
  if (ceiling === undefined || ceiling.at <= domain[0] || ceiling.at >= domain[1]) return [];
  const x = n(logX(ceiling.at, domain, plotLeft, LAYOUT.plotWidth));
  return [
    `<line class="ceiling" x1="${x}" x2="${x}" y1="${top - 4}" y2="${bottom}" stroke="#718096" stroke-dasharray="1 3"/>`,
    `<text x="${x + 3}" y="${top - 6}" font-size="11" fill="#4a5568">${escapeHtml(ceiling.label)}</text>`,
  ];
}
