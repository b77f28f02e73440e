/**
 * The A/B gate's rule, on one cell: B's requests/s over A's, paired round by round (the two
 * lanes' runs alternate, A B | B A, so each round's ratio is of neighbours in time and a drift of
 * the host lands on both sides of it). Pure.
 *
 * The unit of the interval is a process pair, A's and B's server processes started together
 * (Kalibera and Jones, "Rigorous benchmarking in reasonable time"): bench:ab starts a new one every few rounds
 * (plan.roundsPerProcess), and a process that runs apart by itself (one slower server for its
 * whole life) moves all its rounds alike, so its rounds are not independent; the process pairs are.
 * With 3 process pairs or more the interval is Student's t over their geometric mean ratios; with
 * fewer (a run whose servers restarted once midway), the two-level interval of
 * stats/process-interval.ts. Where the speed sampler timed the machine beside every run of 4
 * process pairs or more, their interval is adjusted for it (overProcessPairs): on a shared VM the machine's
 * speed moves by several per cent from one run to the next, and a cell whose work feels it moves
 * with it, the host and not the change. A round in which another process used the CPU beside either
 * side's run (system/host-speed.ts sharedRun) is left out: the host was shared for one side and not the other.
 *
 * - regressed / improved: the ratio's 95 % interval excludes 1 and its estimate is at least
 *   FLAG_SHARE of the margin away from 1. The floor keeps a real but negligible change (1 %, seen
 *   precisely) from failing a check, and it keeps A/A pairs quiet: on the interval alone an A/A
 *   pair that runs until its interval is narrow enough is flagged more than 5 times in 100 (the
 *   95 % interval's 5, and the cells that stop on a spread read narrow by chance), above the 1
 *   in 20 a gate may raise; with the floor, 2 to 4 in 100 (test/ab-rule.test.ts simulates the
 *   whole rule).
 * - unchanged: otherwise, when the whole interval lies within ±margin: the cell could have seen
 *   a change of the margin and did not.
 * - inconclusive: otherwise (an interval wider than the margin, too few paired rounds, rounds all on one
 *   process pair, a cell that did not measure): no claim either way, with why and what to do.
 *
 * Every verdict carries the smallest change its cell could have flagged: the interval's
 * half-width (a change that large would just exclude 1), and never less than the floor.
 */
import { sampleCorrelation, sampleStandardDeviation } from 'simple-statistics';
import type { AbCell, AbVerdict, SpeedAdjusted } from '../model/ab.ts';
import type { CellResult, RunResult } from '../model/cell.ts';
import type { Flag } from '../model/names.ts';
import { budgetNeed, runsToGoal } from '../bench/budget.ts';
import { exactRatioInterval, holdsOne, MIN_PAIRS, ratioText, sig4 } from '../stats/paired.ts';
import { acrossProcessInterval, processComponents } from '../stats/process-interval.ts';
import { byProcess, type OverProcessPairs, overProcessPairs, type PairedRound, pairedRounds, round4 } from './process-pairs.ts';

export type AbJudgement = Pick<
  AbCell,
  | 'verdict'
  | 'ratio'
  | 'ci95'
  | 'pairs'
  | 'processPairs'
  | 'sharedRounds'
  | 'margin'
  | 'detectable'
  | 'reason'
  | 'why'
  | 'bFailed'
  | 'flags'
  | 'speedAdjusted'
  | 'pairsNeeded'
>;

const pct = (share: number): string => `${(share * 100).toFixed(1)} %`;
export const signedPct = (ratio: number): string => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;

/**
 * The share of the margin a change must reach to be flagged (with an interval that excludes 1):
 * a change of the margin is flagged when its estimate lands above it, 0.4 of the margin below
 * the change; at POWER_SHARE that is 1.6 standard errors, 95 times in 100.
 */
export const FLAG_SHARE = 0.6;

/**
 * The share of the margin an interval's half-width must be within before a cell stops: there a
 * standard error is about a quarter of the margin, so a change of the margin clears FLAG_SHARE
 * 9 times in 10 or more, and a same-code pair's estimate reaches it (2.4 standard errors) 1 or 2
 * times in 100: 2 to 4 with the cells that stop on a spread read narrow by chance.
 */
export const POWER_SHARE = 0.5;

/** The whole interval within ±margin, symmetric in B/A's log (1/1.05 to 1.05 for 5 %): "unchanged". */
const withinMargin = (ci95: readonly [number, number], margin: number): boolean => ci95[0] >= 1 / (1 + margin) && ci95[1] <= 1 + margin;

/** The log half-width a cell's interval stops at (abNeed) and is held to when its need is told (processPairsToSee). */
const stopHalfWidth = (margin: number): number => Math.log1p(margin * POWER_SHARE);

/**
 * "unchanged" from an adjusted interval only where the plain one lies within the margin too. The
 * adjustment takes out what moved with the speed the sampler read, and a B that moves that reading
 * by less than speedShift can tell (its spread is a few per cent a pair) would have part of its own
 * change taken out: enough to hide a regression of the margin behind "unchanged", the one verdict
 * that lets a change through. The rest of the rule keeps the adjusted interval.
 */
function unchangedOnBoth(judged: AbJudgement, adjusted: OverProcessPairs['adjusted']): AbJudgement {
  if (judged.verdict !== 'unchanged' || adjusted === undefined) return judged;
  const [lo, hi] = adjusted.plain;
  if (withinMargin(adjusted.plain, judged.margin)) return judged;
  const [alo, ahi] = judged.ci95 ?? [lo, hi];
  return {
    ...judged,
    verdict: 'inconclusive',
    why: 'adjusted-only',
    reason: `its interval adjusted for the machine's speed (${ratioText(alo)}-${ratioText(ahi)}x) lies within ±${pct(judged.margin)}, its plain interval (${ratioText(lo)}-${ratioText(hi)}x) does not: the adjustment holds only where B does not move the speed the sampler reads, which no run can prove, so no change is ruled out: give it more pairs (--budget, --runs) or a quieter host`,
  };
}

/** Why a cell whose every process pair was timed is not adjusted for the machine's speed. */
function shiftNote(ci95: [number, number] | undefined): string | undefined {
  if (ci95 === undefined) return undefined;
  return `not adjusted for the machine's speed: it read ${signedPct(ci95[0])} to ${signedPct(ci95[1])} during B's runs against A's (95 % interval), where A and B alternating would hold it at 0, so B itself may move what the sampler reads`;
}

/**
 * Why a round's B/A scattered, as far as the machine says: how much its speed (timed beside every
 * run by the speed sampler) differed between A's run and B's, over the rounds, and whether B/A
 * moved with it. On a shared VM the speed can move by 10 % from one second to the next, and a
 * cell whose work feels it fully (a call-heavy recursion) then scatters as much: the host, not
 * the change. Undefined with fewer than 4 rounds timed.
 */
export function hostSpeedNote(rounds: readonly PairedRound[]): string | undefined {
  const timed = rounds.filter((r) => r.speed !== undefined);
  if (timed.length < 4) return undefined;
  const speed = timed.map((r) => Math.log(r.speed ?? 1));
  const ratio = timed.map((r) => Math.log(r.ratio));
  const spread = sampleStandardDeviation(speed);
  const moved = `the machine's speed, timed beside each run, differed by ±${pct(Math.expm1(spread))} between A's run and B's (standard deviation over ${timed.length} rounds)`;
  const r = spread > 0 && sampleStandardDeviation(ratio) > 0 ? sampleCorrelation(speed, ratio) : 0;
  return Math.abs(r) >= 0.3 ? `${moved}, and B/A moved with it (correlation ${r.toFixed(2)})` : moved;
}

/** For an inconclusive cell whose interval is adjusted: what the adjustment took out, so what is left is the cell's own. */
function adjustedNote(adjusted: SpeedAdjusted | undefined): string | undefined {
  if (adjusted === undefined) return undefined;
  const [lo, hi] = adjusted.unadjusted.ci95;
  return `the interval is adjusted for the machine's speed timed beside each run (B/A moved with it at correlation ${adjusted.correlation.toFixed(2)}; unadjusted ${ratioText(lo)}-${ratioText(hi)}x), so what is left is the cell's own scatter`;
}

/**
 * bench:ab's rule for another pair of processes (ab-rounds.ts abProcessPairNeed): 0 once the
 * interval over process pairs is within POWER_SHARE of the margin (a change of the margin would
 * be flagged 9 times in 10), else budget/budgetNeed's weight; 1 while there are too few process
 * pairs for an interval.
 */
export function abNeed(a: readonly RunResult[], b: readonly RunResult[], margin: number, maxProcessPairs: number): number {
  const interval = overProcessPairs(pairedRounds(a, b).rounds);
  if (interval === undefined) return 1;
  const half = (Math.log(interval.ci95[1]) - Math.log(interval.ci95[0])) / 2;
  const goal = stopHalfWidth(margin);
  return half <= goal ? 0 : budgetNeed(half, goal, interval.processPairs, Math.max(interval.processPairs, maxProcessPairs));
}

/**
 * The verdict on B over A for one cell, `margin` as a share (0.05). With 3 process pairs or
 * more, the interval is over the process pairs; with fewer and `between` (the between-process variance
 * of the log ratios pooled over the report's A/B cells, stats/process-interval.ts), a cell
 * measured on two process pairs gets the two-level interval.
 */
export function judgeAb(
  a: CellResult | undefined,
  b: CellResult | undefined,
  margin: number,
  between?: { variance: number; df: number },
): AbJudgement {
  const none = (reason: string): AbJudgement => ({ verdict: 'inconclusive', why: 'failed', pairs: 0, margin, detectable: null, reason });
  if (a === undefined || b === undefined)
    return { ...none(`${a === undefined ? 'A' : 'B'} has no such cell`), ...(a?.status === 'ok' ? { bFailed: true } : {}) };
  const status = (side: string, cell: CellResult) =>
    `${side}'s cell is ${cell.status}${cell.reason === undefined ? '' : ` (${cell.reason})`}`;
  // A B whose servers died or failed the check fails the gate unless A's failed too: an A cell
  // left invalid by a stray error answer measured all the same.
  const bBroke = b.status === 'failed' && a.status !== 'failed';
  if (a.status !== 'ok')
    return {
      ...none(`${status('A', a)}${bBroke ? `, and ${status('B', b)}` : ''}: fix it, then run again`),
      ...(bBroke ? { bFailed: true } : {}),
    };
  if (b.status !== 'ok') return { ...none(`${status('B', b)}: fix it, then run again`), bFailed: true };
  return withFlags(judgeMeasured(a, b, margin, between), a.flags, b.flags);
}

/**
 * The cell flags that bear on B/A of requests/s: a client that set the pace, requests that timed
 * out (not in requests/s), counts that disagree. The others are the rule's own business already:
 * unstable is the spread the interval carries, shared-host the rounds left out (sharedRounds),
 * latency-censored a latency matter.
 */
const VERDICT_FLAGS: readonly Flag[] = ['client-bound', 'overloaded', 'count-mismatch'];

/**
 * A verdict read with the cells' flags (VERDICT_FLAGS). A client-bound side's load generator used
 * a core's worth of CPU, so its requests/s may be what the client could ask rather than what the
 * server could answer: a floor of its server's. So B below a client-bound A is still a regression
 * (A could only have been faster), and B client-bound above A still an improvement; every other
 * verdict with a client-bound side may compare the client with itself, and is inconclusive. With
 * both sides bound no number of process pairs could flag a change either way, so such a cell is told no
 * count of them (pairsNeeded), only what would help. The flags travel with the verdict.
 */
function withFlags(judged: AbJudgement, aFlags: readonly Flag[], bFlags: readonly Flag[]): AbJudgement {
  const bearing = (fs: readonly Flag[]): Flag[] => fs.filter((f) => VERDICT_FLAGS.includes(f));
  const [a, b] = [bearing(aFlags), bearing(bFlags)];
  if (a.length === 0 && b.length === 0) return judged;
  const flags = { flags: { a, b } };
  const [aBound, bBound] = [a.includes('client-bound'), b.includes('client-bound')];
  const stands =
    (judged.verdict === 'inconclusive' && !(aBound && bBound)) ||
    (judged.verdict === 'regressed' && !bBound) ||
    (judged.verdict === 'improved' && !aBound) ||
    (judged.verdict === 'unchanged' && !aBound && !bBound);
  if (stands) return { ...judged, ...flags };
  const side = aBound && bBound ? 'both sides' : aBound ? "A's side" : "B's side";
  const { pairsNeeded: _needed, ...rest } = judged;
  const which = { unchanged: 'alike', regressed: 'slower', improved: 'faster', inconclusive: 'slower or faster' }[judged.verdict];
  return {
    ...rest,
    ...flags,
    verdict: 'inconclusive',
    why: 'client-bound',
    reason: `B ${signedPct(judged.ratio ?? 1)}, but the load generator used a core's worth of CPU on ${side} (client-bound): its requests/s may be a floor of what its server could serve, set by the client, so this B/A cannot say whether B is ${which}; give the load its own CPU (servers on another machine, --server-host) or judge a heavier cell`,
  };
}

/** judgeAb on two measured cells. */
function judgeMeasured(a: CellResult, b: CellResult, margin: number, between: { variance: number; df: number } | undefined): AbJudgement {
  const none = (reason: string, pairs: number): AbJudgement => ({
    verdict: 'inconclusive',
    why: 'few-rounds',
    pairs,
    margin,
    detectable: null,
    reason,
  });
  const { rounds, shared } = pairedRounds(a.runDetails, b.runDetails);
  const sharedNote = shared === 0 ? {} : { sharedRounds: shared };
  const overProcesses = overProcessPairs(rounds);
  if (overProcesses !== undefined)
    return {
      ...unchangedOnBoth(
        judgeRatio(
          overProcesses.ratio,
          overProcesses.ci95,
          rounds.length,
          margin,
          overProcesses.processPairs,
          adjustedNote(overProcesses.adjusted?.record) ?? shiftNote(overProcesses.speedShifted) ?? hostSpeedNote(rounds),
        ),
        overProcesses.adjusted,
      ),
      processPairs: overProcesses.processPairs,
      ...(overProcesses.adjusted === undefined ? {} : { speedAdjusted: overProcesses.adjusted.record }),
      ...sharedNote,
    };
  const units = byProcess(rounds);
  const interval = exactRatioInterval(rounds.map((r) => r.ratio));
  if (interval === undefined)
    return {
      ...none(
        `${rounds.length} paired round(s)${shared === 0 ? '' : ` (${shared} more left out: another process used the CPU)`}, ${MIN_PAIRS} needed for an interval: run without --quick (a verdict needs pairs of server processes), or with --runs ${Math.max(4, MIN_PAIRS)} or more for --quick's estimate`,
        rounds.length,
      ),
      ...sharedNote,
    };
  if (units.length === 1) return { ...oneProcessPair(interval, margin, shared), ...sharedNote };
  const components = between === undefined ? undefined : processComponents({ groups: units });
  if (components === undefined || between === undefined)
    return { ...judgeRatio(interval.ratio, interval.ci95, interval.pairs, margin, undefined, hostSpeedNote(rounds)), ...sharedNote };
  const [lo, hi] = acrossProcessInterval(components, between);
  return {
    ...judgeRatio(Math.exp(components.logMean), [lo, hi], interval.pairs, margin, units.length, hostSpeedNote(rounds)),
    processPairs: units.length,
    ...sharedNote,
  };
}

/**
 * A cell whose kept rounds all ran on one process pair (--quick, or a run whose other
 * process pairs were all left out): its interval over rounds speaks for those two processes, not for the
 * code. One process can run a few per cent apart from the next for its whole life (the
 * between-process variance this rule is built on), and nothing in one process pair can say by how much,
 * so no claim is made either way: the estimate and its interval are kept for the reader, the
 * verdict is inconclusive.
 */
function oneProcessPair(
  { ratio, ci95, pairs }: { ratio: number; ci95: [number, number]; pairs: number },
  margin: number,
  shared: number,
): AbJudgement {
  const left = shared === 0 ? '' : ` (${shared} more left out: another process used the CPU)`;
  return {
    ...judgeRatio(ratio, ci95, pairs, margin),
    verdict: 'inconclusive',
    why: 'one-pair',
    // It could flag no change at all, whatever its interval over rounds.
    detectable: null,
    reason: `its ${pairs} paired rounds${left} ran on one pair of server processes: B ${signedPct(ratio)} (${ratioText(ci95[0])}-${ratioText(ci95[1])}x over rounds) speaks for those two processes, not for the code, since a server process can run apart by itself for its whole life; run without --quick (more --runs keep --quick's one pair): bench:ab then starts a new pair of server processes every 2 rounds and judges over the pairs, to see a change of ±${pct(margin)}`,
  };
}

/**
 * The rule on a paired ratio and its 95 % interval (exported for the tests on fixed inputs); an
 * inconclusive verdict's reason carries `host` (hostSpeedNote) before what to do.
 */
export function judgeRatio(
  ratio: number,
  ci95: [number, number],
  pairs: number,
  margin: number,
  processPairs?: number,
  host?: string,
): AbJudgement {
  const half = (Math.log(ci95[1]) - Math.log(ci95[0])) / 2;
  const detectable = round4(Math.max(Math.expm1(half), margin * FLAG_SHARE));
  const beyond = Math.abs(Math.log(ratio)) >= Math.log1p(margin * FLAG_SHARE);
  const within = withinMargin(ci95, margin);
  const verdict: AbVerdict = !holdsOne(ci95) && beyond ? (ratio < 1 ? 'regressed' : 'improved') : within ? 'unchanged' : 'inconclusive';
  // Judged on the figures as computed; the report shows them to 4 significant figures.
  const base = { verdict, ratio: sig4(ratio), ci95: [sig4(ci95[0]), sig4(ci95[1])] as [number, number], pairs, margin, detectable };
  if (verdict !== 'inconclusive') return base;
  const interval = `its 95 % interval (${ratioText(ci95[0])}-${ratioText(ci95[1])}x)`;
  // An interval narrower than the margin can still reach past it, off centre: the pair could see
  // a change of the margin, yet neither found one nor ruled one out.
  const wide = Math.expm1(half) > margin;
  const what = wide
    ? `${interval} is wider than ±${pct(margin)}: this pair could flag only a change over ${pct(detectable)}`
    : `its 95 % interval (${ci95[0].toFixed(4)}-${ci95[1].toFixed(4)}x) reaches past the margin's ${ci95[0] < 1 / (1 + margin) ? `lower bound, ${(1 / (1 + margin)).toFixed(4)}x (1/${(1 + margin).toFixed(2)})` : `upper bound, ${(1 + margin).toFixed(4)}x`} and ${holdsOne(ci95) ? 'holds 1' : `its ${signedPct(ratio)} is under the ${pct(margin * FLAG_SHARE)} it flags`}: a change of the margin is neither found nor ruled out`;
  const seeing = processPairs === undefined ? 0 : processPairsToSee(ci95, margin, processPairs);
  // Only a cell short of process pairs is told a number: one with enough is narrow, just off centre.
  const needed = seeing > (processPairs ?? 0) ? seeing : undefined;
  const more =
    needed === undefined
      ? processPairs !== undefined
        ? `its interval is as narrow as the rule stops at, just off centre: B's change lies near the margin or the flag's floor, and only more pairs than the rule asks for (a higher --runs) would say on which side`
        : 'give it more (--max-runs, --budget) or a quieter host'
      : needed === Number.POSITIVE_INFINITY
        ? `at this spread even ${MAX_PROCESS_PAIRS_TO_SEE} pairs of server processes would not let it see ±${pct(margin)}: a quieter host, or a cell whose rounds scatter less`
        : `at this spread about ${needed} pairs of server processes would let it see ±${pct(margin)} 9 times in 10: give it those (--budget; the report says how much) or a quieter host`;
  return {
    ...base,
    why: wide ? 'wide' : 'off-centre',
    ...(needed === undefined || needed === Number.POSITIVE_INFINITY ? {} : { pairsNeeded: needed }),
    reason: `${what}; it had ${pairs} paired rounds${processPairs === undefined ? '' : ` on ${processPairs} pairs of server processes`}${host === undefined ? '' : `; ${host}`}: ${more}`,
  };
}

/** How far processPairsToSee looks: past it a cell is out of any budget's reach. */
const MAX_PROCESS_PAIRS_TO_SEE = 400;

/**
 * The process pairs an interval `ci95` over `processPairs` would need, if their spread stays
 * what it is, to stop as abNeed stops (a half-width within POWER_SHARE of the margin, where a
 * change of the margin is flagged 9 times in 10): `processPairs` itself when they are enough already,
 * Infinity past MAX_PROCESS_PAIRS_TO_SEE. The docs' promise table reads it of every committed cell.
 */
export function processPairsToSee(ci95: readonly [number, number], margin: number, processPairs: number): number {
  const half = (Math.log(ci95[1]) - Math.log(ci95[0])) / 2;
  return runsToGoal(half, stopHalfWidth(margin), processPairs, MAX_PROCESS_PAIRS_TO_SEE) ?? Number.POSITIVE_INFINITY;
}
