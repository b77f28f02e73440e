/**
 * A cell's CPU profile in the reports (--profile): the top functions as a table, what held the
 * loop in a sentence, and the main thread's call tree as an icicle graph (root on top, each
 * frame as wide as its time), drawn as plain SVG: no script, no network, and it prints.
 */
import { markdownTable } from 'markdown-table';
import type { CellResult } from '../../model/cell.ts';
import type { FlameNode, ProfileFunction } from '../../model/profile.ts';
import { escapeCell } from '../../present/formats.ts';
import { modeLabel } from '../text/labels.ts';
import { functionLabel, heldSentence, pct } from '../text/profile.ts';
import { escapeHtml } from '../../present/html-escape.ts';
import { readableName } from '../../profile/function-name.ts';

const TOP = 5;

function profiled(cells: readonly CellResult[]): CellResult[] {
  const rank = (c: CellResult) => ['baseline', 'raw', 'sync', 'async', 'worker'].indexOf(c.mode);
  return cells
    .filter((c) => c.profile !== undefined)
    .sort((a, b) => a.runtime.localeCompare(b.runtime) || (a.runtimeLabel ?? '').localeCompare(b.runtimeLabel ?? '') || rank(a) - rank(b));
}

/**
 * Where some cells' servers recorded when their loop was late and others' could not (a raw
 * server), the two figures are told apart in one sentence; otherwise there is one kind and none is needed.
 */
function figuresNote(list: readonly CellResult[]): string | undefined {
  const late = list.find((c) => c.profile?.summary?.late !== undefined)?.profile?.summary?.late;
  const held = list.some((c) => c.profile?.summary?.held !== undefined);
  return late !== undefined && held
    ? `"While the loop was late" is read from the server's own lag sampler (its ticks more than ${late.thresholdMs} ms late) and what the profile sampled then; "held" is read from the profile alone (stretches of samples with no return to the loop), for servers with no lag sampler.`
    : undefined;
}

const cellName = (cell: CellResult, swept: boolean) => `${cell.runtimeLabel ?? cell.runtime} ${modeLabel(cell, swept)}`;

/** One line a cell: what its main thread did and what held the loop, or why it has no profile. */
export function profileSentences(cells: readonly CellResult[], swept: boolean): string[] {
  return profiled(cells).map((cell) => {
    const p = cell.profile;
    if (p?.summary === undefined) return `${cellName(cell, swept)}: no profile (${p?.reason ?? 'none written'})`;
    const threads = (p.threads ?? []).filter((t) => t.busyShare >= 0.05 && t.bySelf[0] !== undefined);
    const others =
      threads.length === 0
        ? ''
        : `; ${threads.length} other thread${threads.length === 1 ? '' : 's'} busy (${threads.map((t) => `${pct(t.busyShare)} ${readableName(t.bySelf[0]?.name ?? '')}`).join(', ')})`;
    // Only Node's profiler writes a profile for each worker thread.
    const unseen =
      cell.mode === 'worker' && p.threads === undefined ? `; ${cell.runtime} profiles its main thread only, not the pool's threads` : '';
    return `${cellName(cell, swept)}: ${heldSentence(p.summary)}${others}${unseen}`;
  });
}

/** Each profiled cell's top functions by self time on the main thread, as Markdown. */
export function profileMarkdown(cells: readonly CellResult[], swept: boolean): string | undefined {
  const list = profiled(cells);
  if (list.length === 0) return undefined;
  const rows = list.flatMap((cell) =>
    (cell.profile?.summary?.bySelf ?? []).slice(0, TOP).map((f) => [cellName(cell, swept), ...functionCells(f)].map(escapeCell)),
  );
  const sentences = profileSentences(cells, swept).map((line) => `- ${line}`);
  const files = list.flatMap((c) => (c.profile?.file ? [`\`${c.profile.file}\``] : []));
  const note = figuresNote(list);
  const intro = `Where the time goes (\`--profile\`: each cell's load once more on a server under its runtime's CPU profiler, after the measured runs; shares are of the main thread's wall time):${note === undefined ? '' : ` ${note}`}`;
  const table = markdownTable([['cell', 'function', 'where', 'self', 'total'], ...rows], { align: ['l', 'l', 'l', 'r', 'r'] });
  return [intro, sentences.join('\n'), table, `Profiles (open in Chrome DevTools, speedscope or cpupro): ${files.join(', ')}`].join('\n\n');
}

function functionCells(f: ProfileFunction): string[] {
  return [readableName(f.name), f.where ?? f.kind, pct(f.selfShare), pct(f.totalShare)];
}

/** The profiled cells of one scenario side by side in HTML: the sentence, the graph and the top functions of each. */
export function profileHtml(cells: readonly CellResult[], swept: boolean): string {
  const list = profiled(cells);
  if (list.length === 0) return '';
  const sentences = profileSentences(cells, swept);
  const figures = list.map((cell, i) => {
    const p = cell.profile;
    // The root as wide as the main thread's busy share of the window: work that left shows as a narrow graph.
    const busy = p?.summary === undefined || p.summary.windowMs <= 0 ? 1 : Math.min(1, (p.flame?.ms ?? 0) / p.summary.windowMs);
    const graph = p?.flame === undefined ? '' : flameSvg(p.flame, { width: 420, share: busy });
    const top = (p?.summary?.bySelf ?? [])
      .slice(0, TOP)
      .map(
        (f) =>
          `<tr><td>${escapeHtml(functionLabel(f))}</td><td class="num">${pct(f.selfShare)}</td><td class="num">${pct(f.totalShare)}</td></tr>`,
      )
      .join('');
    const link = p?.file ? ` <a href="${escapeHtml(p.file)}" download>${escapeHtml(p.file.split('/').at(-1) ?? '')}</a>` : '';
    return [
      '<figure class="profile">',
      `<figcaption>${escapeHtml(sentences[i] ?? '')}${link}</figcaption>`,
      graph,
      top === ''
        ? ''
        : `<table><thead><tr><th>function (self time)</th><th>self</th><th>total</th></tr></thead><tbody>${top}</tbody></table>`,
      '</figure>',
    ].join('');
  });
  const note = figuresNote(list);
  return `<details class="profiles" open><summary>Where the time goes: the main thread's CPU profile (--profile, after the measured runs)</summary>${note === undefined ? '' : `<p>${escapeHtml(note)}</p>`}<div class="profile-row" style="display:flex;flex-wrap:wrap;gap:1em">${figures.join('')}</div></details>`;
}

const ROW = 16;

/**
 * An icicle graph of a call tree: the root spans `share` of the width (all of it by default), each frame sits under its caller as
 * wide as its share of the root's time; frames too narrow to see are left out. Hover a frame
 * for its name, file and time (an SVG title).
 */
export function flameSvg(tree: FlameNode, options: { width: number; share?: number }): string {
  const { width } = options;
  const rootWidth = width * Math.max(0, Math.min(1, options.share ?? 1));
  const rects: string[] = [];
  let depth = 0;
  const draw = (node: FlameNode, x: number, w: number, level: number) => {
    if (w < 0.5) return;
    depth = Math.max(depth, level + 1);
    const y = level * ROW;
    const name = readableName(node.name);
    const label = node.where === undefined ? name : `${name} ${node.where}`;
    const share = tree.ms > 0 ? node.ms / tree.ms : 0;
    const title = `${label}: ${node.ms.toFixed(1)} ms (${pct(share)} of the busy time)`;
    const text = w > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${y + 12}" font-size="10">${escapeHtml(fitName(name, w))}</text>` : '';
    rects.push(
      `<g><title>${escapeHtml(title)}</title><rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${ROW - 1}" fill="${colour(node)}"/>${text}</g>`,
    );
    let at = x;
    for (const child of node.children) {
      const cw = node.ms > 0 ? (w * child.ms) / node.ms : 0;
      draw(child, at, cw, level + 1);
      at += cw;
    }
  };
  draw(tree, 0, rootWidth, 0);
  const height = depth * ROW;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="flame" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="main thread call tree, ${tree.ms.toFixed(0)} ms busy">${rects.join('')}</svg>`;
}

/** The name cut to what fits in `w` pixels at about 6 px a character. */
function fitName(name: string, w: number): string {
  const chars = Math.floor((w - 6) / 6);
  return name.length <= chars ? name : `${name.slice(0, Math.max(1, chars - 1))}…`;
}

/** Warm for the app's and the user's code, cooler for packages, grey for the runtime and native code. */
function colour(node: FlameNode): string {
  const where = node.where ?? '';
  if (where === '' || where.startsWith('node:') || where.startsWith('ext:') || node.name === 'all') return '#d0d0d0';
  let hash = 0;
  for (const ch of where) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const isPackage = /^(@[^/]+\/)?[^/]+\/(dist|lib|build)\//.test(where) || where.startsWith('hono/') || where.startsWith('@hono/');
  const hue = isPackage ? 190 + (hash % 50) : 15 + (hash % 35);
  return `hsl(${hue} 70% ${isPackage ? 72 : 62}%)`;
}
