import { describe, expect, it } from 'vitest';
import { agreement } from '../src/stats/agreement.ts';
import { ratioPairs, ratioReproducibility } from '../src/compare/reproduced.ts';
import { compareReports } from '../src/compare/compare.ts';
import { judgeChange } from '../src/compare/gate.ts';
import { cellVerdictText, renderComparisonMarkdown } from '../src/compare/render-compare.ts';
import { acrossProcessInterval, pooledBetween, processComponents } from '../src/stats/process-interval.ts';
import { withAcrossProcesses } from '../src/report/across-processes.ts';
import { availableParallelism } from 'node:os';
import { CHECK_FIB_N, QUICK_CHECK_CALLS, checkBefore, driftCancelled, withAfter } from '../src/bench/reference.ts';
import { closeRun } from '../src/bench/run-setup.ts';
import { abSchedule } from '../src/ab/ab-flags.ts';
import type { SpeedSampler } from '../src/system/speed-sampler.ts';
import type { RunMeta } from '../src/model/run-files.ts';
import { restartsBefore } from '../src/bench/run-rules.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { hostHealth } from '../src/report/text/host-health.ts';
import { idleFloor } from '../src/system/speed-math.ts';
import { readingMs, samplerMove } from '../src/system/host-speed.ts';
import type { CellResult } from '../src/model/cell.ts';
import type { Comparison } from '../src/model/comparison.ts';
import { summarize } from '../src/stats/stats.ts';
import { environment, makeCell, makeReport, makeRun } from './fixtures.ts';

describe('the reproducibility rule', () => {
  it('counts bun sleep async/sync 9.98 (9.93-10.04) against 10.05 (9.96-10.14) as agreeing: within 3 %', () => {
    const verdict = agreement({ median: 9.98, ci95: [9.93, 10.04] }, { median: 10.05, ci95: [9.96, 10.14] });
    expect(verdict?.agree).toBe(true);
    expect(verdict?.allowed).toBeCloseTo(0.03, 6);
  });

  it('allows the combined interval when it is wider than 3 %, and no more', () => {
    // Each ±10 % on a log scale: combined about ±14.6 %.
    const a = { median: 1, ci95: [Math.exp(-0.1), Math.exp(0.1)] as [number, number] };
    expect(agreement(a, { median: 1.14, ci95: [1.14 * Math.exp(-0.1), 1.14 * Math.exp(0.1)] })?.agree).toBe(true);
    expect(agreement(a, { median: 1.17, ci95: [1.17 * Math.exp(-0.1), 1.17 * Math.exp(0.1)] })?.agree).toBe(false);
  });

  it('holds a narrow pair to 3 %: 3.5 % apart disagrees', () => {
    expect(agreement({ median: 100, ci95: [99.9, 100.1] }, { median: 103.5, ci95: [103.4, 103.6] })?.agree).toBe(false);
  });

  it('is symmetric: a ratio and its inverse agree or not alike', () => {
    const a = { median: 1.8, ci95: [1.7, 1.9] as [number, number] };
    const b = { median: 2.1, ci95: [2.0, 2.2] as [number, number] };
    const inv = (e: typeof a) => ({ median: 1 / e.median, ci95: [1 / e.ci95[1], 1 / e.ci95[0]] as [number, number] });
    expect(agreement(a, b)?.agree).toBe(agreement(inv(a), inv(b))?.agree);
  });
});

const comparison = (ratio: number, ci: [number, number]): Comparison => ({
  runtime: 'bun',
  scenario: 'sleep',
  asyncOverSync: { throughput: ratio, p99: null, probeP99: null, pairedThroughput: ratio, throughputCi95: ci, pairs: 4 },
});

describe('ratios reproduced', () => {
  it('pairs the headline ratios by runtime and scenario and counts them by the rule', () => {
    const pairs = ratioPairs([comparison(9.98, [9.93, 10.04])], [comparison(10.05, [9.96, 10.14])]);
    expect(pairs.map((p) => p.name)).toEqual(['bun sleep async/sync']);
    expect(ratioReproducibility(pairs)).toMatchObject({ reproduced: 1, of: 1, holds: true });
    const far = ratioPairs([comparison(9.98, [9.93, 10.04])], [comparison(8, [7.9, 8.1])]);
    expect(ratioReproducibility(far)).toMatchObject({ reproduced: 0, of: 1, holds: false });
  });
});

/** A cell with runs split between two server processes, each run with a reference time. */
function splitCell(scenario: CellResult['scenario'], mode: CellResult['mode'], rps: readonly number[], refMs = 0.5): CellResult {
  const runs = rps.map((r, i) =>
    makeRun({ requestsPerSec: r, serverProcess: i < rps.length / 2 ? 1 : 2, referenceMs: refMs, round: i + 1 }),
  );
  return makeCell({
    runtime: 'node',
    scenario,
    mode,
    requestsPerSec: summarize(rps),
    runDetails: runs,
    ...(driftCancelled(runs) === undefined ? {} : { driftCancelled: driftCancelled(runs) }),
  });
}

/** An A/A pair: the same cells, measured again with ordinary noise (the second process a little off, as processes are). */
function aaPair(scale: number, refScale: number): [CellResult[], CellResult[]] {
  const a = [
    splitCell('hash', 'sync', [1000, 1012, 990, 1004]),
    splitCell('hash', 'async', [1700, 1690, 1740, 1725]),
    splitCell('fib', 'sync', [300, 303, 296, 291]),
    splitCell('hello', 'raw', [12000, 12400, 11500, 11800]),
  ];
  const b = [
    splitCell(
      'hash',
      'sync',
      [1020, 1003, 985, 998].map((x) => x * scale),
      0.5 * refScale,
    ),
    splitCell(
      'hash',
      'async',
      [1710, 1730, 1680, 1700].map((x) => x * scale),
      0.5 * refScale,
    ),
    splitCell(
      'fib',
      'sync',
      [296, 301, 305, 299].map((x) => x * scale),
      0.5 * refScale,
    ),
    splitCell(
      'hello',
      'raw',
      [11800, 12200, 12100, 11600].map((x) => x * scale),
      0.5 * refScale,
    ),
  ];
  return [withAcrossProcesses(a), withAcrossProcesses(b)];
}

describe('the regression gate', () => {
  it('gives 0 regressions and 0 improvements on an A/A pair', () => {
    const [a, b] = aaPair(1, 1);
    const c = compareReports(makeReport(a), makeReport(b), { threshold: 0.05 });
    expect(c.counts).toMatchObject({ regressed: 0, improved: 0 });
  });

  it('stays quiet when the host slowed 1.4x between the reports: req/unit holds, so req/s alone cannot fail a cell', () => {
    const [a, b] = aaPair(1 / 1.4, 1.4);
    const c = compareReports(makeReport(a), makeReport(b), { threshold: 0.05 });
    expect(c.counts).toMatchObject({ regressed: 0, improved: 0 });
    // Raw req/s cannot reproduce across the drift; req/unit does.
    expect(c.reproducibility).toMatchObject({ reproduced: 0, of: 4 });
    expect(c.driftCancelledReproducibility).toMatchObject({ reproduced: 4, of: 4 });
  });

  it('flags a real 20 % drop on a host that held, and prints the margin', () => {
    const [a, b] = aaPair(1, 1);
    const dropped = withAcrossProcesses(b.map((cell) => (cell.scenario === 'hash' && cell.mode === 'sync' ? scaled(cell, 0.8) : cell)));
    const c = compareReports(makeReport(a), makeReport(dropped), { threshold: 0.05 });
    expect(c.counts).toMatchObject({ regressed: 1, improved: 0 });
    expect(c.hasRegression).toBe(true);
    expect(renderComparisonMarkdown(c)).toContain('margins ±5 % (hello ±10 %, p99 ±20 %) with 95 % confidence');
  });

  it('does not judge a cell whose runs shared the host with other processes: the same 20 % drop is "not judged"', () => {
    const [a, b] = aaPair(1, 1);
    const shared = (cell: CellResult): CellResult =>
      cell.scenario === 'hash' && cell.mode === 'sync'
        ? {
            ...scaled(cell, 0.8),
            flags: [...cell.flags, 'shared-host'],
            sharedHost: "other processes used up to 0.90 cores' worth in 4 of 4 runs",
          }
        : cell;
    const c = compareReports(makeReport(a), makeReport(withAcrossProcesses(b.map(shared))), { threshold: 0.05 });
    expect(c.counts).toMatchObject({ regressed: 0, improved: 0, notTestable: 1 });
    const hash = c.cells.find((cell) => cell.scenario === 'hash' && cell.mode === 'sync');
    expect(hash === undefined || hash.kind !== 'compared' ? '' : cellVerdictText(hash)).toBe(
      '? could not tell: other processes shared the host ⚠ shared-host (current)',
    );
  });

  it('judges a change by its whole interval against the margin', () => {
    const at = (m: number, half: number) => ({ median: m, ci95: [m * (1 - half), m * (1 + half)] as [number, number] });
    expect(judgeChange(at(100, 0.02), at(80, 0.02), 0.05, 'lower').verdict).toBe('regressed');
    expect(judgeChange(at(100, 0.02), at(93, 0.03), 0.05, 'lower').verdict).toBe('unchanged');
    expect(judgeChange(at(100, 0.02), at(120, 0.02), 0.05, 'lower').verdict).toBe('improved');
    expect(judgeChange(undefined, at(120, 0.02), 0.05, 'lower').verdict).toBe('not-testable');
  });
});

function scaled(cell: CellResult, by: number): CellResult {
  const runs = cell.runDetails.map((r) => ({ ...r, requestsPerSec: r.requestsPerSec * by }));
  const cancelled = driftCancelled(runs);
  return {
    ...cell,
    requestsPerSec: summarize(runs.map((r) => r.requestsPerSec)),
    runDetails: runs,
    ...(cancelled === undefined ? {} : { driftCancelled: cancelled }),
  };
}

describe('the two-level interval', () => {
  it('widens a cell whose two processes differ beyond what the runs within each explain', () => {
    const tight = processComponents({
      groups: [
        [100, 101],
        [99, 100],
      ],
    });
    const apart = processComponents({
      groups: [
        [100, 101],
        [110, 111],
      ],
    });
    expect(tight).toBeDefined();
    expect(apart).toBeDefined();
    if (tight === undefined || apart === undefined) return;
    const between = pooledBetween([tight, apart]);
    expect(between.variance).toBeGreaterThan(0);
    const [lo, hi] = acrossProcessInterval(tight, between);
    const [wlo, whi] = acrossProcessInterval(tight, { variance: 0, df: 0 });
    expect(hi - lo).toBeGreaterThan(whi - wlo);
    expect(processComponents({ groups: [[100, 101, 102]] })).toBeUndefined();
  });
});

describe("the sampler's noise floor", () => {
  it('reads the idle floor from the spread of its warm-up units', () => {
    const steady = Array.from({ length: 40 }, (_, i) => 0.3 * (1 + ((i % 4) - 1.5) * 0.002));
    expect(idleFloor([steady, steady])).toBeLessThan(0.01);
    const noisy = Array.from({ length: 40 }, (_, i) => (i % 8 < 4 ? 0.3 : 0.4));
    expect(idleFloor([noisy])).toBeGreaterThan(0.1);
  });

  it('stays quiet when runs of one cell read within the floor, and says by how much when not', () => {
    const run = (coresWorth: number, tickCv = 0.02) => ({ coresWorth, min: coresWorth, max: coresWorth, ticks: 8, tickCv });
    const steady = samplerMove([{ cell: 'node hash/sync', runs: [run(1.6), run(1.63), run(1.58), run(1.61)] }], 0.02);
    expect(steady.beyondFloor).toBe(false);
    // Different cells read differently under their own loads: not a move.
    const loads = samplerMove(
      [
        { cell: 'node hash/sync', runs: [run(1.6), run(1.62), run(1.59)] },
        { cell: 'node fib/worker', runs: [run(1.1), run(1.12), run(1.09)] },
      ],
      0.02,
    );
    expect(loads.beyondFloor).toBe(false);
    const moved = samplerMove([{ cell: 'node hash/sync', runs: [run(1.6), run(1.62), run(1.0), run(1.61)] }], 0.02);
    expect(moved).toMatchObject({ beyondFloor: true, worst: { cell: 'node hash/sync', deviation: 0.377 } });
    // A noisy run's own ticks raise its floor.
    const noisy = samplerMove([{ cell: 'node hash/sync', runs: [run(1.6), run(1.62), run(1.45, 0.2), run(1.61)] }], 0.02);
    expect(noisy.beyondFloor).toBe(false);
  });
});

describe('the host check and the warnings at the top of a report', () => {
  const before = { at: '2026-11-25T17:00:00Z', alone: [3.0, 3.02], together: [3.05, 3.04] };
  const check = { n: 28, calls: 20, before, floor: 0.01, threshold: 0.05 };

  it('says the host held when the check after is within its threshold, and moved when not', () => {
    const held = withAfter(check, { ...before, alone: [3.03, 3.01], together: [3.06, 3.05] });
    expect(held.moved).toBe(false);
    expect(hostHealth({ ...environment, hostCheck: held }, [])?.text).toMatch(
      /^✓ The host held: independent check −0\.\d % between this run's start and end/,
    );
    const slowed = withAfter(check, { ...before, alone: [5.0, 5.1], together: [5.2, 5.1] });
    expect(slowed).toMatchObject({ moved: true });
    expect(slowed.change).toBeCloseTo(3.03 / 5.1 - 1, 3);
    expect(hostHealth({ ...environment, hostCheck: slowed }, [])?.text).toMatch(
      /^⚠ The host's speed moved: independent check −40\.\d % between this run's start and end/,
    );
  });

  it("reads 20 calls a CPU in the full plan's check and fewer in --quick's, bench:ab --quick's as bench's", () => {
    expect(parsePlan([]).checkCalls).toBe(20);
    expect(parsePlan(['--runs', '3']).checkCalls).toBe(20);
    expect(parsePlan(['--quick']).checkCalls).toBe(QUICK_CHECK_CALLS);
    expect(QUICK_CHECK_CALLS).toBeLessThan(20);
    expect(abSchedule(parsePlan(['--quick', '--runs', '3']), ['--quick', '--runs', '3']).checkCalls).toBe(QUICK_CHECK_CALLS);
    expect(abSchedule(parsePlan([]), []).checkCalls).toBe(20);
  });

  it('takes the size it is given before the run and, after it, the size the check before took', async () => {
    const cpus = availableParallelism();
    const asked: { n: number; calls: number; cpus?: readonly number[] }[] = [];
    // A host that reads 5.5 ms a call on every CPU, alone or together.
    const sampler: SpeedSampler = {
      reference: async (n, calls, which) => {
        asked.push({ n, calls, ...(which === undefined ? {} : { cpus: which }) });
        return { n, ms: (which ?? Array.from({ length: cpus }, (_, i) => i)).map(() => 5.5) };
      },
      window: () => undefined,
      summary: () => ({ vcpus: cpus, pinned: false, intervalMs: 250, overheadPercent: 0, samples: 0 }),
      stop: () => undefined,
    };
    const check = await checkBefore(sampler, cpus, 7);
    expect(check).toMatchObject({ n: CHECK_FIB_N, calls: 7, floor: 0, threshold: 0.05, before: { alone: Array(cpus).fill(5.5) } });
    // Two readings, each CPU alone then all together.
    expect(asked).toHaveLength(2 * (cpus + 1));
    expect(asked.every((a) => a.n === CHECK_FIB_N && a.calls === 7)).toBe(true);
    expect(asked.slice(0, cpus + 1).map((a) => a.cpus)).toEqual([...Array.from({ length: cpus }, (_, i) => [i]), undefined]);

    asked.length = 0;
    const meta = { environment: { ...environment, hostCheck: check } } as unknown as RunMeta;
    const after = await closeRun({
      speed: sampler,
      meta,
      probe: { close: () => undefined } as never,
      signal: new AbortController().signal,
    });
    expect(after).toMatchObject({ calls: 7, change: 0, moved: false, after: { together: Array(cpus).fill(5.5) } });
    expect(asked).toHaveLength(2 * (cpus + 1));
    expect(asked.every((a) => a.calls === 7)).toBe(true);
  });

  it('reads a check by its median call: one disturbed call does not move it', () => {
    expect(readingMs({ ...before, together: [3.05, 9.9] })).toBeCloseTo(3.035, 6);
  });

  it("stays silent on the sampler's spread when no run left its cell beyond the floor, and says how far when one did", () => {
    const speed = { vcpus: 2, pinned: true, intervalMs: 250, coresWorth: { min: 0.9, max: 1.7 }, overheadPercent: 0.3, samples: 900 };
    // The sampler speaks at the top only where no check ran.
    const movingMachineText = (env: typeof environment) => hostHealth(env, [])?.text;
    expect(movingMachineText({ ...environment, machineSpeed: { ...speed, moved: { beyondFloor: false } } })).toBeUndefined();
    const worst = { cell: 'node hash/sync', deviation: 0.3, floor: 0.05 };
    expect(movingMachineText({ ...environment, machineSpeed: { ...speed, moved: { beyondFloor: true, worst } } })).toContain(
      "read 30.0 % from that cell's other runs, 6.0x the sampler's floor of ±5.0 %",
    );
  });
});

describe('the two-level interval, never narrower than one level', () => {
  it("keeps a cell's own spread when its scenario's pooled between-process variance clips to 0", () => {
    const apart = processComponents({
      groups: [
        [100, 100.5],
        [110, 110.5],
      ],
    });
    expect(apart).toBeDefined();
    if (apart === undefined) return;
    const [lo, hi] = acrossProcessInterval(apart, { variance: 0, df: 8 });
    // The four runs alone, as one process: mean about 105, t(3) 3.182, sd about 5.8.
    expect(hi / lo).toBeGreaterThan(1.15);
  });
});

describe('two server processes per cell', () => {
  it('splits the plan runs evenly: with 4 runs and 2 processes the servers restart before round 3 only', () => {
    const plan = { runs: 4, serverProcesses: 2 };
    expect([1, 2, 3, 4, 5, 6].map((round) => restartsBefore(round, plan))).toEqual([false, false, true, false, false, false]);
    expect([1, 2, 3, 4].map((round) => restartsBefore(round, { runs: 4, serverProcesses: 1 }))).toEqual([false, false, false, false]);
  });

  it('is on by default in the full plan and off with --quick or when asked', () => {
    expect(parsePlan([]).serverProcesses).toBe(2);
    expect(parsePlan(['--quick']).serverProcesses).toBe(1);
    expect(parsePlan(['--server-processes', '1']).serverProcesses).toBe(1);
  });
});
