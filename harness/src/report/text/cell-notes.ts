/**
 * A cell's notes, each tagged with its kind, so a renderer can group them (the console lists each
 * kind once under its table, with the cells it applies to, instead of repeating it per row) and
 * a legend can list only the kinds a report uses. A cell gets a note only where it changes how its
 * figures read; a kind every cell of a table shares is said once for the table, not marked per row.
 * Pure.
 */
import type { CellResult } from '../../model/cell.ts';
import { CEILING_OK_RATIO, CLIENT_BOUND_CPU_PERCENT, UNSTABLE_CV } from '../../model/thresholds.ts';
import { cellRemarks, flagLabel } from '../flags.ts';
import { formatRatio, formatRps } from '../../present/formats.ts';
import { precisionNotes } from '../../present/precision.ts';

/** Each kind and the start of its note's text: the note's kind is the first whose prefix it has. */
const KINDS = [
  ['failed', '✗ failed'],
  ['invalid', '✗ invalid'],
  ['client-bound', '⚠ client-bound'],
  ['unstable', '⚠ unstable'],
  ['count-mismatch', '⚠ count-mismatch'],
  ['latency-censored', '⚠ latency censored'],
  ['latency-censored', '⚠ latency-censored'],
  ['overloaded', '⚠ overloaded'],
  ['shared-host', '⚠ shared host'],
  ['shared-host', '⚠ shared-host'],
  ['page-faults', '⚠ page faults'],
  ['cv-target', '⚠ CV target'],
  ['first-run', '⚠ first run'],
  ['warning', '⚠ '],
  ['unfair', '⚖ connections served unevenly'],
  ['slow-runs', '🐢'],
  ['machine-moved', '〰'],
  ['cold-cache', '❄ cold cache'],
  ['cross-check', 'wrk '],
] as const;

export type NoteKind = (typeof KINDS)[number][0] | 'other';

export interface CellNote {
  kind: NoteKind;
  text: string;
}

function kindOf(text: string): NoteKind {
  return KINDS.find(([, prefix]) => text.startsWith(prefix))?.[0] ?? 'other';
}

/** What a reader must know before trusting the row: status first, then flags, each with its kind. */
export function cellNoteList(cell: CellResult): CellNote[] {
  const notes: string[] = [];
  if (cell.status !== 'ok') notes.push(`✗ ${cell.status}${cell.reason === undefined ? '' : `: ${cell.reason}`}`);
  for (const flag of cell.flags) notes.push(flagLabel(flag, cell));
  notes.push(...cellRemarks(cell));
  if (cell.fileCache === 'cold') notes.push('❄ cold cache');
  notes.push(...precisionNotes(cell));
  // wrk's figure matters only where autocannon fell short of it: the server can serve at least
  // that much. At or above CEILING_OK_RATIO of it, the figure reads as measured.
  if (cell.crossCheck !== undefined && cell.crossCheck.ratio < CEILING_OK_RATIO)
    notes.push(`wrk ${formatRps(cell.crossCheck.requestsPerSec)} req/s, autocannon ${formatRatio(cell.crossCheck.ratio)} of that`);
  if (cell.precision !== undefined && !cell.precision.met) {
    notes.push(`⚠ CV target ${(cell.precision.targetCv * 100).toFixed(1)} % not met in ${cell.requestsPerSec.runs.length} runs`);
  }
  return notes.map((text) => ({ kind: kindOf(text), text }));
}

/** The kinds of note any of the cells carries. */
export function noteKinds(cells: readonly CellResult[]): Set<NoteKind> {
  return new Set(cells.flatMap((c) => cellNoteList(c).map((n) => n.kind)));
}

/** A note's own words once its kind's label is said: "⚠ unstable (CV 23 %)" -> "CV 23 %". */
function detailOf(note: CellNote): string {
  const prefix = KINDS.find(([kind]) => kind === note.kind)?.[1] ?? '';
  const rest = note.text
    .slice(prefix.length)
    .trim()
    .replace(/^[:≈]\s*/, '');
  // "(CV 23 %)" loses its parentheses: the caller puts the detail in its own.
  return rest.startsWith('(') && rest.endsWith(')') ? rest.slice(1, -1) : rest;
}

/** The label a group of notes goes under. */
const GROUP_LABELS: Record<NoteKind, string> = {
  failed: '✗ failed (the server died or hung)',
  invalid: '✗ invalid (errors, non-2xx answers or a failed answer check)',
  'client-bound': `⚠ client-bound (the load generator used ≥ ${CLIENT_BOUND_CPU_PERCENT} % of a core: the server may be faster than shown)`,
  unstable: `⚠ unstable (requests/s varied between runs by more than ${UNSTABLE_CV * 100} % CV)`,
  'count-mismatch': '⚠ count-mismatch (the server counted other requests than the client sent)',
  'latency-censored': '⚠ latency censored (the latency figures cannot be told)',
  overloaded: '⚠ overloaded (requests timed out; the figures are of the answered ones)',
  'shared-host': '⚠ shared host (other processes used the CPU during runs)',
  'page-faults': "⚠ page faults (a large share of the server's CPU went to faulting in fresh memory)",
  'cv-target': '⚠ CV target not met',
  'first-run': '⚠ a slow first run',
  warning: '⚠ other warnings',
  unfair: '⚖ connections served unevenly',
  'slow-runs': '🐢 runs on a slow machine left out',
  'machine-moved': "〰 the machine's speed varied during some runs",
  'cold-cache': '❄ cold cache',
  'cross-check': 'wrk cross-check (autocannon against wrk)',
  other: 'other notes',
};

export interface NoteGroup {
  kind: NoteKind;
  label: string;
  /** "bun hello raw (CV 23 %)": each cell the kind applies to, with its own figure; for `every`, the cells it does not. */
  cells: string[];
  /** On every cell (or all but a few), with no figure of each one's worth listing: said once for the table, no row marked. */
  every: boolean;
}

/** Past this many cells a group names them without each one's figure: the kind is the news. */
const DETAILED_UP_TO = 12;

/** A kind on all but this many cells (and on at least three in four) is said once, naming the exceptions. */
const EXCEPTIONS_UP_TO = 4;

/**
 * The cells' notes grouped by kind, in the order of KINDS; `name` says which cell a note is on.
 * A kind every cell carries, or all but a few, is `every` (no row marked, said once with the
 * exceptions), unless the cells are few and each has its own figure.
 */
function notesByKind(cells: readonly CellResult[], name: (cell: CellResult) => string): NoteGroup[] {
  const groups = new Map<NoteKind, { cell: CellResult; detail: string }[]>();
  for (const cell of cells)
    for (const note of cellNoteList(cell)) groups.set(note.kind, [...(groups.get(note.kind) ?? []), { cell, detail: detailOf(note) }]);
  const order: NoteKind[] = [...new Set<NoteKind>([...KINDS.map(([kind]) => kind), 'other'])];
  return order.flatMap((kind) => {
    const mine = groups.get(kind);
    if (mine === undefined) return [];
    const detailed = mine.length <= DETAILED_UP_TO;
    const carrying = new Set(mine.map((m) => m.cell));
    const exceptions = cells.filter((c) => !carrying.has(c));
    // A few cells' own figures (each one's CV, its wrk figure) are worth their room even when every cell has the kind.
    const every =
      cells.length > 1 &&
      exceptions.length <= EXCEPTIONS_UP_TO &&
      carrying.size * 4 >= cells.length * 3 &&
      !(detailed && mine.some((m) => m.detail !== ''));
    const listed = every ? exceptions.map(name) : mine.map((m) => `${name(m.cell)}${detailed && m.detail !== '' ? ` (${m.detail})` : ''}`);
    return [{ kind, label: GROUP_LABELS[kind], cells: listed, every }];
  });
}

/** The notes a table's rows are marked with, numbered in this order (1-based). */
export function groupNotes(cells: readonly CellResult[], name: (cell: CellResult) => string): NoteGroup[] {
  return notesByKind(cells, name).filter((g) => !g.every);
}

/**
 * "Every cell: ❄ cold cache.", "Every cell but node hello raw: ⚠ shared host (...).": the kinds
 * every cell of the table carries, or all but a few, each said once; undefined when none.
 */
export function everyCellLine(cells: readonly CellResult[], name: (cell: CellResult) => string): string | undefined {
  const every = notesByKind(cells, name).filter((g) => g.every);
  if (every.length === 0) return undefined;
  return every.map((g) => `Every cell${g.cells.length === 0 ? '' : ` but ${g.cells.join(', ')}`}: ${g.label}.`).join(' ');
}

/** A cell's marks in a table: the numbers of the groups (1-based, as listed under it) its notes fall in, "1,3". */
export function noteMarks(cell: CellResult, groups: readonly NoteGroup[]): string {
  const number = (kind: NoteKind) => groups.findIndex((g) => g.kind === kind) + 1;
  return [...new Set(cellNoteList(cell).map((n) => number(n.kind)))]
    .filter((n) => n > 0)
    .sort((a, b) => a - b)
    .join(',');
}
