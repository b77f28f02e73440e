/**
 * Curve report -> Markdown and the console's capacity table. Pure: formats, never measures.
 */
import Table from 'cli-table3';
import { markdownTable } from 'markdown-table';
import { formatDate, formatMs, formatRps } from '../present/formats.ts';
import { intervalText, timesText, verdictWords } from '../present/verdict-words.ts';
import { MODES, SCENARIO_ORDER } from '../model/names.ts';
import { firstTouchText, machineSpeedRow } from '../present/precision.ts';
import type { Curve, CurveReport, CurveStep } from './curve-types.ts';

const MODE_RANK: readonly string[] = MODES;

export function sortedCurves(curves: readonly Curve[]): Curve[] {
  // The seeds' order first; any other scenario (built-in module or the user's own) in the order
  // its first curve was measured, which is the plan's.
  const firstSeen = [...new Set(curves.map((c) => c.scenario))];
  const scenarioRank = (s: string) => (SCENARIO_ORDER.includes(s) ? SCENARIO_ORDER.indexOf(s) : 100 + firstSeen.indexOf(s));
  return [...curves].sort(
    (a, b) =>
      scenarioRank(a.scenario) - scenarioRank(b.scenario) ||
      a.runtime.localeCompare(b.runtime) ||
      MODE_RANK.indexOf(a.mode) - MODE_RANK.indexOf(b.mode),
  );
}

/**
 * "23.5–37.0" (shown to pass at 23.5, to fail at 37), "≥ 720 (generator-bound)" (the generator's
 * ceiling stopped the search), "≥ 720" (a --rates list that never failed), "< 5" (not even the
 * lowest passed), "undecided" (no rate decided either way), "-" (no figure).
 */
export function formatCapacity(curve: Curve): string {
  if (curve.status !== 'ok') return '-';
  const c = curve.capacity;
  if (c !== undefined) {
    if (c.passPerSec !== null && c.failPerSec !== null) return `${formatRps(c.passPerSec)}–${formatRps(c.failPerSec)}`;
    if (c.passPerSec !== null) return `≥ ${formatRps(c.passPerSec)}${c.end === 'generator-bound' ? ' (generator-bound)' : ''}`;
    if (c.failPerSec !== null) return `< ${formatRps(c.failPerSec)}`;
    return curve.steps.length === 0 ? '-' : 'undecided';
  }
  if (curve.capacityPerSec === null) {
    const lowest = curve.steps.map((s) => s.offeredPerSec).sort((a, b) => a - b)[0];
    return lowest === undefined ? '-' : `< ${formatRps(lowest)}`;
  }
  return `${curve.capacityAtLeast ? '≥ ' : ''}${formatRps(curve.capacityPerSec)}`;
}

const END_NOTE: Record<string, string> = {
  resolved: '',
  'generator-bound': "search stopped by the generator's ceiling",
  'undecided-limit': 'stopped: steps near the capacity undecided in their time',
  'step-limit': 'stopped: step limit',
  'below-floor': 'not even the lowest rate passed',
  rates: '',
};

/** "pass 23.5: 312 req, 0 over (≤ 0.96 %)": the step behind one end of the bracket. */
function endStep(curve: Curve, index: number | null, label: string): string | undefined {
  const d = index === null ? undefined : curve.steps[index]?.decision;
  if (d === undefined) return undefined;
  const step = curve.steps[index ?? 0];
  const rate = `${label} ${formatRps(step?.offeredPerSec ?? 0)}`;
  // A fail whose percentile passed: the server answered under 95 % of the rate its schedule offered.
  if (label === 'fail' && d.outcome === 'pass')
    return `${rate}: not kept up (answered ${formatRps(step?.achievedPerSec ?? 0)} req/s), ${d.requests} req, ${d.overTarget} over`;
  const bound = label === 'pass' ? `share ≤ ${formatPercent(d.upperBound)}` : `share ≥ ${formatPercent(d.lowerBound)}`;
  return `${rate}: ${d.requests} req${clusterNote(d)}, ${d.overTarget} over (${bound})`;
}

/** " (design effect 3.2)": how many requests counted as one, where they were counted so (--design-effect). */
const clusterNote = (d: { designEffect?: number }) => (d.designEffect === undefined ? '' : ` (design effect ${d.designEffect})`);

/** "105 (120 req, 0 over: 70 % sure within)": an undecided step and how far its counts got. */
function undecidedStep(s: CurveStep): string {
  const d = s.decision;
  // Rounded down: 79.97 % must not read as the 80 % a pass needed.
  const sure = Math.floor(d === undefined ? 0 : d.reached.confidence * 1000) / 10;
  const reached = d === undefined ? '' : ` (${d.requests} req${clusterNote(d)}, ${d.overTarget} over: ${sure} % sure ${d.reached.side})`;
  return `${formatRps(s.offeredPerSec)}${reached}`;
}

const formatPercent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 2 : 1)} %`;

/** The deciding steps of the bracket, and where the search stopped short of resolving it. */
export function bracketNotes(curve: Curve): string {
  const c = curve.capacity;
  if (curve.status !== 'ok' || c === undefined) return '';
  const undecided = curve.steps.filter((s) => s.decision?.outcome === 'undecided').map(undecidedStep);
  return [
    endStep(curve, c.passStep, 'pass'),
    endStep(curve, c.failStep, 'fail'),
    ...(undecided.length > 0 ? [`undecided at ${undecided.join(', ')}`] : []),
    END_NOTE[c.end] || undefined,
  ]
    .filter((x) => x !== undefined)
    .join('; ');
}

function curveNotes(curve: Curve): string {
  if (curve.status !== 'ok') return `${curve.status}: ${curve.reason ?? ''}`;
  const bound = curve.steps.filter((s) => s.flags.includes('generator-bound')).length;
  // The first miss above the capacity, when the generator was behind there: it cannot vouch for it.
  const miss = curve.steps
    .filter((s) => !s.meetsTarget && s.offeredPerSec > (curve.capacityPerSec ?? 0))
    .sort((a, b) => a.offeredPerSec - b.offeredPerSec)[0];
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

/** One row per curve: scenario, runtime, mode, closed loop, capacity at the target, its deciding steps, knee. */
export function capacityRows(report: CurveReport): string[][] {
  return sortedCurves(report.curves).map((c) => [
    c.scenario,
    c.runtime,
    c.mode,
    c.status === 'ok' ? formatRps(c.closedLoopPerSec) : '-',
    formatCapacity(c),
    bracketNotes(c),
    c.kneePerSec === null ? '-' : formatRps(c.kneePerSec),
    curveNotes(c),
  ]);
}

/** "p99 ≤ 100 ms": the target, with its percentile. */
export function targetLabel(p: CurveReport['parameters']): string {
  return `p${p.percentile ?? 99} ≤ ${formatMs(p.sloMs)} ms`;
}

/** "95 % confidence, poisson arrivals (seed 1)": the conditions every capacity figure holds under. */
export function conditionsLabel(p: CurveReport['parameters']): string {
  // Reports from before the decided steps state no confidence: only their arrivals are named.
  const confidence =
    p.confidence === undefined
      ? ''
      : `${Math.round(p.confidence * 1000) / 10} % confidence${p.designEffect === true ? ' (requests counted by their design effect)' : ''}, `;
  return `${confidence}${p.arrivals} arrivals${p.arrivals === 'poisson' ? ` (seed ${p.seed})` : ''}`;
}

export const capacityHead = (p: CurveReport['parameters']) => [
  'scenario',
  'runtime',
  'mode',
  'closed loop req/s',
  `capacity req/s at ${targetLabel(p)} (${conditionsLabel(p)})`,
  'deciding steps',
  'knee req/s',
  'notes',
];

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
      .filter((c) => sync !== undefined && c !== sync)
      .map((c) => modeRatio(c, sync as Curve))
      .filter((r) => r !== undefined);
    lines.push(
      `${key}: ${parts.join(', ')} at ${targetLabel(report.parameters)}, ${conditionsLabel(report.parameters)}${ratios.length > 0 ? ` (${ratios.join(', ')})` : ''}`,
    );
  }
  return lines;
}

/**
 * "async 10.5x sync", or with brackets the range their ends allow ("async 12-31x sync"; "≥ 12x"
 * when async's search found no fail).
 */
function modeRatio(c: Curve, sync: Curve): string | undefined {
  const lo = (x: Curve) => x.capacity?.passPerSec ?? x.capacityPerSec;
  const hi = (x: Curve) => (x.capacity === undefined ? x.capacityPerSec : x.capacity.failPerSec);
  const cLo = lo(c);
  const sHi = hi(sync);
  if (cLo === null || sHi === null || !(sHi > 0)) return undefined;
  // Ladder rates without brackets: one figure, no range to judge.
  if (c.capacity === undefined || sync.capacity === undefined) return `${c.mode} ${(cLo / sHi).toFixed(1)}x sync`;
  const cHi = hi(c);
  const sLo = lo(sync);
  const low = cLo / sHi;
  // An open top: the range's low end alone, said as a direction only where it clears 1.
  if (cHi === null || sLo === null || !(sLo > 0)) return `${c.mode} ${low > 1 ? 'faster' : 'could not tell'}: ≥ ${timesText(low)} sync`;
  return `${c.mode} ${rangeWords(low, cHi / sLo)} sync`;
}

/**
 * The range of capacity ratios the two brackets allow (lowest over highest to highest over
 * lowest) in the words of every report (present/verdict-words.ts), read as an interval:
 * "faster: 1.40–1.50x", "faster, by 20 to 80 % (too uncertain to size)", "could not tell: 0.70–1.30x".
 */
function rangeWords(low: number, high: number): string {
  const words = verdictWords({ ratio: Math.sqrt(low * high), ci: [low, high] });
  return words.kind === 'unsized' ? words.text : `${words.word}: ${intervalText([low, high])}`;
}

/** "pass: 312 req, 0 over, share ≤ 0.96 % after 12.1 s" for the steps table. */
function decisionCell(s: CurveStep): string {
  const d = s.decision;
  if (d === undefined) return '-';
  const outcome = s.meetsTarget ? 'pass' : d.outcome === 'pass' ? 'fail (not kept up)' : d.outcome;
  return `${outcome}: ${d.requests} req${clusterNote(d)}, ${d.overTarget} over, share ${formatPercent(d.lowerBound)}–${formatPercent(d.upperBound)} (${formatRps(d.reached.confidence * 100)} % ${d.reached.side}) in ${formatRps(d.stoppedAtSec)} s`;
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
    s.phase ?? '-',
    decisionCell(s),
    s.flags.join(', ') || (s.meetsTarget ? 'meets target' : ''),
  ];
}

/** How the run searched, in one paragraph (report.md's header). */
function methodLine(report: CurveReport): string {
  const p = report.parameters;
  const search =
    p.rates !== undefined
      ? `Rates: ${p.rates.join(', ')} req/s, each step decided (${conditionsLabel(p)}).`
      : p.confidence === undefined
        ? `Ladder: ${p.ladderSteps} rates, geometric from ${p.ladderShares[0] * 100} % to ${p.ladderShares[1] * 100} % of each cell's closed-loop throughput, ${p.stepSec} s per step.`
        : `Search: a coarse bracket from ${formatRps((p.startShare ?? 0.5) * 100)} % of each cell's closed-loop throughput in rungs ${formatRps((p.ladderShares[1] / p.ladderShares[0]) ** (1 / Math.max(1, p.ladderSteps - 1)))}x apart (up past any top until a rate fails), then bisection (geometric mean) to hi/lo ≤ ${formatRps(1 + (p.resolution ?? 0.05))}. ` +
          `Each step runs until an exact binomial (Clopper-Pearson) bound at ${formatRps(p.confidence * 100)} % decides whether more than ${formatRps(100 - (p.percentile ?? 99))} % of requests were slower than ${formatMs(p.sloMs)} ms: pass no sooner than ${p.stepSec} s, fail at once, undecided at its cap (up to ${p.maxStepSec} s; ${p.maxUndecided ?? 2} undecided steps end a cell's search).`;
  return (
    `Open loop: ${p.arrivals} arrivals${p.arrivals === 'poisson' ? ` (seed ${p.seed})` : ''}, latency from the scheduled send time; target ${targetLabel(p)}. ${search} ` +
    `Machine: ${report.environment.cpu.model} × ${report.environment.cpu.count}${machineSpeedClause(report)}.` +
    (report.elapsedSec === undefined ? '' : ` Run took ${Math.round(report.elapsedSec)} s.`) +
    serverHostSentence(report)
  );
}

/** "; machine speed: 2 vCPUs, 1.2 to 1.9 cores' worth during this run (...); fresh memory: ...": bench's environment rows, as clauses. */
function machineSpeedClause(report: CurveReport): string {
  const row = machineSpeedRow(report.environment);
  const touch = report.environment.memoryFirstTouch;
  return `${row === undefined ? '' : `; ${row[0]}: ${row[1]}`}${touch === undefined ? '' : `; fresh memory: ${firstTouchText(touch)}`}`;
}

/** --server-host: where the servers ran and what the path between costs (the machine above is then the generator's). */
function serverHostSentence(report: CurveReport): string {
  const s = report.environment.serverHost;
  if (s === undefined) return '';
  const n = report.environment.network;
  const figure = (r: { median: number; min: number; max: number } | undefined) =>
    r === undefined ? 'not measured' : `${r.median} ms median (min ${r.min}, max ${r.max})`;
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
    methodLine(report),
    '',
    `## Capacity at ${targetLabel(p)}, ${conditionsLabel(p)}`,
    '',
    markdownTable([capacityHead(p), ...capacityRows(report)]),
    '',
    ...capacitySentences(report).map((line) => `- ${line}`),
    '',
    p.confidence === undefined
      ? "Capacity: the highest offered rate whose p99 stayed within the target while the server answered at least 95 % of it. Knee: the last rate whose p99 stayed within twice the lowest rate's p99."
      : `Capacity: a bracket [highest rate shown to pass, lowest shown to fail] at ${formatRps(p.confidence * 100)} % confidence; pass also needs the server to answer at least 95 % of the rate offered. "≥ x (generator-bound)": the generator's own ceiling stopped the search. Undecided steps are shown, never counted as a pass. Knee: the last rate (in rate order) whose p99 stayed within twice the lowest rate's p99.`,
    '',
    `## Steps (${p.arrivals} arrivals, in the order run)`,
  ];
  for (const c of sortedCurves(report.curves)) {
    out.push('', `### ${c.runtime} ${c.scenario}/${c.mode} (${c.path})`, '');
    if (c.status !== 'ok') out.push(`${c.status}: ${c.reason ?? ''}`, '');
    if (c.steps.length > 0) {
      out.push(
        markdownTable([
          [
            'offered',
            'achieved',
            'p50',
            'p90',
            'p99',
            'p99.9',
            'max',
            'err/timeout/dropped',
            'server CPU %',
            'lag p99',
            'gen. late p99',
            'phase',
            'decision',
            'flags',
          ],
          ...c.steps.map(stepRow),
        ]),
      );
    }
  }
  return `${out.join('\n')}\n`;
}

export function renderCurveConsole(report: CurveReport): string {
  const table = new Table({ head: capacityHead(report.parameters), style: { head: [], border: [], compact: true } });
  for (const row of capacityRows(report)) table.push(row);
  const header = `Load curves ${formatDate(report.createdAt)} (${report.parameters.arrivals} arrivals): ${report.status === 'interrupted' ? 'INTERRUPTED (partial results)' : 'complete'}`;
  const skipped = report.runtimes
    .filter((r) => r.status !== 'ok')
    .map((r) => `${r.name} ${r.status}${r.reason === undefined ? '' : `: ${r.reason}`}`);
  return `${[
    header,
    ...(skipped.length > 0 ? [`Not measured: ${skipped.join('; ')}`] : []),
    table.toString(),
    ...capacitySentences(report),
  ].join('\n')}\n`;
}
