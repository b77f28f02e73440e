/**
 * The Markdown sections of --processes: "Processes" (N processes against 1, with the memory they
 * cost) and "Pools" (the sizes each runtime ran with and where they came from). Pure.
 */
import { markdownTable } from 'markdown-table';
import type { PoolSize } from '@bench/app';
import type { CellResult } from '../../model/cell.ts';
import type { ProcessRatios } from '../../model/comparison.ts';
import type { Report } from '../../model/report.ts';
import { runtimeLabel } from '../text/labels.ts';

const DASH = '—';

const fmtRatio = (x: number | null | undefined) => (x === null || x === undefined ? DASH : `${x.toFixed(x < 10 ? 2 : 1)}×`);
const fmtMB = (x: number | undefined) => (x === undefined ? DASH : `${Math.round(x)}`);

function row(runtime: string, scenario: string, what: string, r: ProcessRatios | undefined): string[] | undefined {
  if (r === undefined) return undefined;
  return [
    runtime,
    scenario,
    what,
    fmtRatio(r.throughput),
    fmtRatio(r.p99),
    fmtRatio(r.probeP99),
    `${fmtMB(r.overRssMB)} / ${fmtMB(r.baseRssMB)} (${fmtRatio(r.rss)})`,
  ];
}

const PROCESS_HEAD = ['runtime', 'scenario', 'comparison', 'req/s', 'p99', 'probe p99', 'RSS MB, all processes (ratio)'];
const PROCESS_NOTE =
  "Each ratio is the first cell over the second: above 1× on req/s is more throughput; below 1× on p99 and probe p99 is shorter waits. RSS is the peak of all the server's processes together (the supervisor included): the memory this answer costs.";

/** The rows of the processes comparison (shared by the Markdown and HTML reports). */
export function processRows(report: Report): string[][] {
  return (report.processComparisons ?? []).flatMap((c) => {
    const n = `x${c.processes}`;
    return [
      row(c.runtime, c.scenario, `sync ${n} / sync x1`, c.syncNOverSync1),
      row(c.runtime, c.scenario, `async x1 / sync ${n}`, c.async1OverSyncN),
      row(c.runtime, c.scenario, `async ${n} / async x1`, c.asyncNOverAsync1),
    ].filter((r): r is string[] => r !== undefined);
  });
}

export function processesSection(report: Report): string | undefined {
  const rows = processRows(report);
  if (rows.length === 0) return undefined;
  return ['## Processes', PROCESS_NOTE, markdownTable([PROCESS_HEAD, ...rows], { align: ['l', 'l', 'l', 'r', 'r', 'r', 'r'] })].join(
    '\n\n',
  );
}

function pool(p: PoolSize | undefined): string {
  if (p === undefined) return DASH;
  const size = p.size === null ? 'on demand' : String(p.size);
  return `${size} (${p.source})`;
}

const POOLS_HEAD = ['server', 'thread pool', 'fib workers', 'thread pool is'];
const POOLS_NOTE =
  "Per process: the thread pool behind Node-API async work (bcrypt's async hash) and the /fib/worker pool, as each server reported them, with where the size came from (default: sized from the CPUs the server may use; flag; env; cannot be set).";

/** Pools per runtime and process count, from the cells (each server's own /health). */
export function poolRows(report: Report): string[][] {
  const seen = new Map<string, CellResult>();
  for (const cell of report.results) {
    if (cell.pools === undefined) continue;
    const key = runtimeLabel(cell);
    if (!seen.has(key)) seen.set(key, cell);
  }
  return [...seen.entries()].map(([label, cell]) => [
    label,
    pool(cell.pools?.threadpool),
    pool(cell.pools?.workers),
    cell.pools?.threadpool.what ?? DASH,
  ]);
}

export function poolsSection(report: Report): string | undefined {
  const rows = poolRows(report);
  if (rows.length === 0) return undefined;
  return ['## Pools', POOLS_NOTE, markdownTable([POOLS_HEAD, ...rows], { align: ['l', 'r', 'r', 'l'] })].join('\n\n');
}

/** Both sections as HTML (the text is escaped by the caller's escape function). */
export function processesHtml(report: Report, esc: (text: string) => string): string {
  const table = (head: string[], rows: string[][]) =>
    `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
      .map((r) => `<tr>${r.map((v) => `<td>${esc(v)}</td>`).join('')}</tr>`)
      .join('')}</tbody></table>`;
  const processes = processRows(report);
  const pools = poolRows(report);
  return [
    ...(processes.length === 0
      ? []
      : [
          '<section id="processes"><h2>Processes</h2>',
          `<p class="muted">${esc(PROCESS_NOTE)}</p>`,
          table(PROCESS_HEAD, processes),
          '</section>',
        ]),
    ...(pools.length === 0
      ? []
      : ['<section id="pools"><h2>Pools</h2>', `<p class="muted">${esc(POOLS_NOTE)}</p>`, table(POOLS_HEAD, pools), '</section>']),
  ].join('\n');
}
