/**
 * The result block of two bench reports of one plan at two core counts (--server-cpus): per cell,
 * requests/s predicted from the other run's CPU costs beside the measured, and a worker's or
 * async's gain over sync, predicted and measured, at each count.
 */
import { markdownTable } from 'markdown-table';
import { type CoreCountRow, coreCountLeftOut, coreCountRows } from '../report/core-count.ts';
import { formatRatio, formatRps } from '../present/formats.ts';
import type { Report } from '../model/report.ts';

const rps = (x: number | undefined) => (x === undefined ? '—' : formatRps(x));

function gain(rows: readonly CoreCountRow[], row: CoreCountRow, i: number): string {
  if (row.mode === 'sync') return '';
  const sync = rows.find((r) => r.runtime === row.runtime && r.scenario === row.scenario && r.mode === 'sync')?.at[i];
  const mine = row.at[i];
  if (sync === undefined || mine === undefined) return '';
  const predicted = mine.predicted !== undefined && sync.predicted !== undefined ? formatRatio(mine.predicted / sync.predicted) : '—';
  const probe = sync.probeP99Ms > 0 ? `; a bystander's p99 ${formatRatio(mine.probeP99Ms / sync.probeP99Ms)} sync's` : '';
  return ` (× sync: ${predicted} → ${formatRatio(mine.measured / sync.measured)}${probe})`;
}

/** The table and its legend; `a` and `b` are the two runs (fewer CPUs first reads best). */
export function coreCountBlock(a: Report, b: Report, runLine: (r: Report) => string): string {
  const rows = coreCountRows(a, b);
  if (rows.length === 0) return 'No cell measured ok in both runs with its CPU costs: nothing to predict.';
  const counts = rows[0]?.at.map((s) => s.cpus) ?? [];
  const leftOut = coreCountLeftOut(a, b).map(
    (l) =>
      `Left out: ${l.scenario} ${l.mode}, whose requests/s are not the same work as sync's (${l.why}): neither a prediction from its CPU costs nor its gain over sync would compare with the other modes'.`,
  );
  const head = ['scenario', 'runtime', 'mode', ...counts.map((n) => `req/s on ${n} CPU${n === 1 ? '' : 's'}: predicted → measured`)];
  const body = rows.map((row) => [
    row.scenario,
    row.runtime,
    row.mode,
    ...row.at.map((s, i) => `${rps(s.predicted)} → ${rps(s.measured)}${gain(rows, row, i)}`),
  ]);
  return [
    `${runLine(a)}`,
    '',
    `${runLine(b)}`,
    '',
    markdownTable([head, ...body], { align: ['l', 'l', 'l', ...counts.map(() => 'r')] }),
    '',
    "Predicted: from the CPU a request cost in the other run (every thread of the server, and its loop's thread alone), as min(CPUs free ÷ CPU a request, 1 ÷ the loop's CPU a request); CPUs free: the server's own, less the load generator's CPU where it shared them. It holds for CPU-bound work; a timer (sleep) is bounded by neither.",
    ...leftOut.flatMap((line) => ['', line]),
  ].join('\n');
}
