/**
 * Curve report -> Markdown and the console's capacity table. Pure: formats, never measures.
 */
import Table from 'cli-table3';
import { markdownTable } from 'markdown-table';
import { formatDate, formatMs, formatRps } from '../report/render/markdown.ts';
import { MODE_ORDER, SCENARIO_ORDER } from '../report/merge.ts';
import type { Curve, CurveReport, CurveStep } from './curve-types.ts';

const MODE_RANK: readonly string[] = MODE_ORDER;

export function sortedCurves(curves: readonly Curve[]): Curve[] {
  const scenarioRank = (s: string) => (SCENARIO_ORDER.indexOf(s as never) + 100) % 100;
  return [...curves].sort(
    (a, b) => scenarioRank(a.scenario) - scenarioRank(b.scenario) || a.runtime.localeCompare(b.runtime) || MODE_RANK.indexOf(a.mode) - MODE_RANK.indexOf(b.mode),
  );
}

/** "45", "≥ 470" (the top step still met it), "< 5" (not even the lowest), "-" (no figure). */
export function formatCapacity(curve: Curve): string {
  if (curve.status !== 'ok') return '-';
  if (curve.capacityPerSec === null) {
    const lowest = curve.steps.map((s) => s.offeredPerSec).sort((a, b) => a - b)[0];
    return lowest === undefined ? '-' : `< ${formatRps(lowest)}`;
  }
  return `${curve.capacityAtLeast ? '≥ ' : ''}${formatRps(curve.capacityPerSec)}`;
}

function curveNotes(curve: Curve): string {
  if (curve.status !== 'ok') return `${curve.status}: ${curve.reason ?? ''}`;
  const bound = curve.steps.filter((s) => s.flags.includes('generator-bound')).length;
  // The first miss above the capacity, when the generator was behind there: it cannot vouch for it.
  const miss = curve.steps.filter((s) => !s.meetsTarget && s.offeredPerSec > (curve.capacityPerSec ?? 0)).sort((a, b) => a.offeredPerSec - b.offeredPerSec)[0];
  const dropped = curve.steps.reduce((sum, s) => sum + s.dropped, 0);
  const failed = curve.steps.reduce((sum, s) => sum + s.errors + s.timeouts, 0);
  return [
    ...(bound > 0 ? [`${bound} step${bound === 1 ? '' : 's'} generator-bound`] : []),
    ...(miss?.flags.includes('generator-bound') === true ? ['first miss generator-bound: capacity may be higher'] : []),
    ...(dropped > 0 ? [`${dropped} dropped`] : []),
    ...(failed > 0 ? [`${failed} errors/timeouts`] : []),
    ...(curve.stoppedEarly ? ['stopped early'] : []),
  ].join('; ');
}

/** One row per curve: scenario, runtime, mode, closed loop, capacity at the target, knee. */
export function capacityRows(report: CurveReport): string[][] {
  return sortedCurves(report.curves).map((c) => [
    c.scenario,
    c.runtime,
    c.mode,
    c.status === 'ok' ? formatRps(c.closedLoopPerSec) : '-',
    formatCapacity(c),
    c.kneePerSec === null ? '-' : formatRps(c.kneePerSec),
    curveNotes(c),
  ]);
}

const HEAD = (sloMs: number) => ['scenario', 'runtime', 'mode', 'closed loop req/s', `capacity req/s at p99 ≤ ${formatMs(sloMs)} ms`, 'knee req/s', 'notes'];

/** "sleep on node: sync 45 req/s, async 470 req/s at p99 ≤ 100 ms (async 10x sync)". */
export function capacitySentences(report: CurveReport): string[] {
  const groups = new Map<string, Curve[]>();
  for (const c of sortedCurves(report.curves)) {
    const key = `${c.scenario} on ${c.runtime}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const lines: string[] = [];
  for (const [key, curves] of groups) {
    const ok = curves.filter((c) => c.status === 'ok');
    if (ok.length === 0) continue;
    const parts = ok.map((c) => `${c.mode} ${formatCapacity(c)} req/s`);
    const sync = ok.find((c) => c.mode === 'sync');
    const ratios = ok
      .filter((c) => sync !== undefined && c !== sync && c.capacityPerSec !== null && sync.capacityPerSec !== null && sync.capacityPerSec > 0)
      .map((c) => `${c.mode} ${((c.capacityPerSec ?? 0) / (sync?.capacityPerSec ?? 1)).toFixed(1)}x sync`);
    lines.push(`${key}: ${parts.join(', ')} at p99 ≤ ${formatMs(report.parameters.sloMs)} ms${ratios.length > 0 ? ` (${ratios.join(', ')})` : ''}`);
  }
  return lines;
}

function stepRow(s: CurveStep): string[] {
  return [
    formatRps(s.offeredPerSec),
    formatRps(s.achievedPerSec),
    formatMs(s.latencyMs.p50),
    formatMs(s.latencyMs.p90),
    formatMs(s.latencyMs.p99),
    formatMs(s.latencyMs.p999),
    formatMs(s.latencyMs.max),
    `${s.errors}/${s.timeouts}/${s.dropped}`,
    `${Math.round(s.server.cpuPercent)}`,
    s.eventLoopLagMs === undefined ? '-' : formatMs(s.eventLoopLagMs.p99),
    formatMs(s.latenessMs.p99),
    s.flags.join(', ') || (s.meetsTarget ? 'meets target' : ''),
  ];
}

/** --server-host: where the servers ran and what the path between costs (the machine above is then the generator's). */
function serverHostSentence(report: CurveReport): string {
  const s = report.environment.serverHost;
  if (s === undefined) return '';
  const n = report.environment.network;
  const figure = (r: { median: number; min: number; max: number } | undefined) => (r === undefined ? 'not measured' : `${r.median} ms median (min ${r.min}, max ${r.max})`);
  return (
    ` Servers on ${s.host} (${s.cpu.model} × ${s.cpu.count}), the generator on the machine above; network round trip (TCP connect) ${figure(n?.tcpConnectMs?.fromLoadHost)}` +
    `, HTTP round trip (GET /health) ${figure(n?.httpRttMs ?? n?.rttMs)}; server CPU from each server's /stats.`
  );
}

export function renderCurveMarkdown(report: CurveReport): string {
  const p = report.parameters;
  const out = [
    `# Load curves, ${formatDate(report.createdAt)}${report.status === 'interrupted' ? ' (INTERRUPTED: partial)' : ''}`,
    '',
    `Open loop: ${p.arrivals} arrivals${p.arrivals === 'poisson' ? ` (seed ${p.seed})` : ''}, latency from the scheduled send time; target p99 ≤ ${formatMs(p.sloMs)} ms. ` +
      `${p.rates === undefined ? `Ladder: ${p.ladderSteps} rates, geometric from ${p.ladderShares[0] * 100} % to ${p.ladderShares[1] * 100} % of each cell's closed-loop throughput` : `Rates: ${p.rates.join(', ')} req/s`}, ` +
      `${p.stepSec} s per step (up to ${p.maxStepSec} s to hold ${p.minSamples} requests). Machine: ${report.environment.cpu.model} × ${report.environment.cpu.count}.` +
      (report.elapsedSec === undefined ? '' : ` Run took ${Math.round(report.elapsedSec)} s.`) +
      serverHostSentence(report),
    '',
    '## Capacity at the target',
    '',
    markdownTable([HEAD(p.sloMs), ...capacityRows(report)]),
    '',
    ...capacitySentences(report).map((line) => `- ${line}`),
    '',
    'Capacity: the highest offered rate whose p99 stayed within the target while the server answered at least 95 % of it (a generator-bound step counts when it met the target: its lateness only added to the latency measured). Knee: the last rate whose p99 stayed within twice the lowest rate\'s p99.',
    '',
    '## Steps',
  ];
  for (const c of sortedCurves(report.curves)) {
    out.push('', `### ${c.runtime} ${c.scenario}/${c.mode} (${c.path})`, '');
    if (c.status !== 'ok') out.push(`${c.status}: ${c.reason ?? ''}`, '');
    if (c.steps.length > 0) {
      out.push(
        markdownTable([
          ['offered', 'achieved', 'p50', 'p90', 'p99', 'p99.9', 'max', 'err/timeout/dropped', 'server CPU %', 'lag p99', 'gen. late p99', 'flags'],
          ...c.steps.map(stepRow),
        ]),
      );
    }
  }
  return `${out.join('\n')}\n`;
}

export function renderCurveConsole(report: CurveReport): string {
  const table = new Table({ head: HEAD(report.parameters.sloMs), style: { head: [], border: [], compact: true } });
  for (const row of capacityRows(report)) table.push(row);
  const header = `Load curves ${formatDate(report.createdAt)}: ${report.status === 'interrupted' ? 'INTERRUPTED (partial results)' : 'complete'}`;
  const skipped = report.runtimes.filter((r) => r.status !== 'ok').map((r) => `${r.name} ${r.status}${r.reason === undefined ? '' : `: ${r.reason}`}`);
  return [header, ...(skipped.length > 0 ? [`Not measured: ${skipped.join('; ')}`] : []), table.toString(), ...capacitySentences(report)].join('\n') + '\n';
}
