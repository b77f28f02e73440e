/**
 * The A/B gate's whole rule held to what docs/ab.md promises, on simulated cells: bench:ab's
 * pairs of server processes (AB_PLAN: its minimum, one more pair while abNeed asks, its cap),
 * each round's B/A scattered as on a VM, then judgeAb's verdict. A same-code pair must be
 * flagged in under 1 in 20 cells, and a 5 % change in 9 of 10 where the cap lets the interval
 * narrow to its goal. Seeded, so the figures are the same on every machine.
 */
import { describe, expect, it } from 'vitest';
import { AB_PLAN } from '../src/ab/ab-flags.ts';
import { abNeed, judgeAb } from '../src/ab/ab-verdict.ts';
import type { RunResult } from '../src/model/cell.ts';
import { makeCell, makeRun } from './fixtures.ts';

const MARGIN = 0.05;

/** mulberry32: a small seeded generator, enough for a normal deviate by Box-Muller. */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * How the machine's speed moves a simulated cell: each run's speed (the sampler's cores' worth)
 * is off by a normal share with sd `sd`, a run's rate moves `slope` times as much (a cell whose
 * work feels the host's speed fully has slope 1), and the sampler reads the speed with a normal
 * error of `readSd`. Absent: runs carry no speed, as a report without the sampler.
 */
interface Host {
  sd: number;
  slope: number;
  readSd: number;
  /** False: the speed moves the runs but the sampler did not run (the runs carry no reading). */
  timed?: boolean;
  /** A log share added to the sampler's reading beside B's runs alone: a B that moves what the sampler reads. */
  shiftB?: number;
}

/**
 * One cell through bench:ab's schedule: pairs of processes of AB_PLAN.roundsPerProcess rounds,
 * B's true rate `ratio` times A's, each run's rate off by a normal share with sd `roundSd / √2`
 * (so one round's B/A scatters by `roundSd`), each of B's processes off from its A by a normal
 * share with sd `processSd` for all its rounds (a process that runs apart by itself), and with
 * `host`, each run moved by the machine's speed (above). Its verdict and how many process pairs it took.
 */
function simulateCell(
  ratio: number,
  roundSd: number,
  processSd: number,
  normal: () => number,
  host?: Host,
): { verdict: string; pairs: number; adjusted: boolean } {
  const a: RunResult[] = [];
  const b: RunResult[] = [];
  const per = AB_PLAN.roundsPerProcess;
  for (let pair = 1; pair <= AB_PLAN.maxProcessPairs; pair++) {
    const apart = Math.exp(processSd * normal());
    for (let r = 0; r < per; r++) {
      const round = (pair - 1) * per + r + 1;
      const run = (rate: number, shift = 0): RunResult => {
        const speed = host === undefined ? 0 : host.sd * normal();
        const machine =
          host === undefined || host.timed === false
            ? {}
            : { machine: { coresWorth: 2 * Math.exp(speed + shift + host.readSd * normal()), min: 1, max: 2, ticks: 8 } };
        const moved = host === undefined ? 1 : Math.exp(host.slope * speed);
        return makeRun({
          requestsPerSec: rate * moved * Math.exp((roundSd / Math.SQRT2) * normal()),
          round,
          serverProcess: pair,
          ...machine,
        });
      };
      a.push(run(1000));
      b.push(run(1000 * ratio * apart, host?.shiftB));
    }
    if (pair >= AB_PLAN.minProcessPairs && abNeed(a, b, MARGIN, AB_PLAN.maxProcessPairs) === 0) break;
  }
  const cell = (label: string, runDetails: RunResult[]) => ({
    ...makeCell({ runtime: 'node', scenario: 'checksum', mode: 'sync', runtimeLabel: label }),
    runDetails,
  });
  const judged = judgeAb(cell('node-A', a), cell('node-B', b), MARGIN);
  return { verdict: judged.verdict, pairs: a.length / per, adjusted: judged.speedAdjusted !== undefined };
}

function flaggedShare(
  ratio: number,
  roundSd: number,
  processSd: number,
  cells: number,
  seed: number,
  host?: Host,
): { flagged: number; unchanged: number; capped: number; adjusted: number } {
  const normal = normals(seed);
  let flagged = 0;
  let unchanged = 0;
  let capped = 0;
  let adjusted = 0;
  for (let i = 0; i < cells; i++) {
    const cell = simulateCell(ratio, roundSd, processSd, normal, host);
    if (cell.verdict === 'regressed' || cell.verdict === 'improved') flagged++;
    if (cell.verdict === 'unchanged') unchanged++;
    if (cell.pairs === AB_PLAN.maxProcessPairs) capped++;
    if (cell.adjusted) adjusted++;
  }
  return { flagged: flagged / cells, unchanged: unchanged / cells, capped: capped / cells, adjusted: adjusted / cells };
}

describe("bench:ab's rule on simulated cells", () => {
  // Round sd 0.07 is the checksum on Node here, 0.10 a cell between it and fib on Deno (0.12-0.19);
  // 0.03 between processes is a process that runs apart by itself for its whole life.
  for (const [roundSd, processSd] of [
    [0.07, 0],
    [0.1, 0],
    [0.07, 0.03],
  ] as const) {
    it(`flags A/A pairs in under 1 in 20 cells and a 5 % change in 9 in 10 (a round's B/A scattering by ${roundSd}, a process's by ${processSd})`, () => {
      const same = flaggedShare(1, roundSd, processSd, 2000, 1);
      const slower = flaggedShare(0.95, roundSd, processSd, 400, 2);
      expect(same.flagged).toBeLessThan(0.05);
      expect(slower.flagged).toBeGreaterThanOrEqual(0.9);
      // the goal, not the cap, ends nearly every cell: the power is the rule's, not the cap's luck
      expect(slower.capped).toBeLessThan(0.05);
    });
  }

  // The machine's speed timed beside every run: the verdict is adjusted for it. A host whose speed
  // moves by 10 % a run, felt half (a file cell on a shared VM: B/A moved with the speed at
  // correlation 0.5-0.75 here) or fully, and one whose speed moves but the cell does not feel it:
  // the adjustment must keep the promise in all three, the last at the cost of one degree of freedom.
  for (const host of [
    { sd: 0.1, slope: 0.5, readSd: 0.02 },
    { sd: 0.1, slope: 1, readSd: 0.02 },
    { sd: 0.1, slope: 0, readSd: 0.02 },
  ]) {
    it(`keeps the promise with the verdict adjusted for the machine's speed (speed sd ${host.sd}, felt ${host.slope}x)`, () => {
      const same = flaggedShare(1, 0.05, 0.02, 2000, 4, host);
      const slower = flaggedShare(0.95, 0.05, 0.02, 400, 5, host);
      // A speed ratio whose interval excludes 1 by chance (1 in 20 cells or so) keeps the plain interval.
      expect(same.adjusted).toBeGreaterThan(0.9);
      expect(same.flagged).toBeLessThan(0.05);
      expect(slower.flagged).toBeGreaterThanOrEqual(0.9);
      expect(slower.capped).toBeLessThan(0.05);
    });
  }

  // A B that moves what the sampler reads beside it (more threads busy, a spinning wait): the
  // adjustment would take part of B's own change out. A shift the pairs can tell apart from the
  // speed's scatter leaves the cell unadjusted; a smaller one may still move the estimate, but
  // never to an "unchanged" the plain interval does not also hold.
  for (const shiftB of [-0.03, -0.06, -0.12]) {
    it(`never calls a 5 % regression unchanged when B moves the sampler's reading by ${shiftB * 100} %`, () => {
      const host = { sd: 0.1, slope: 1, readSd: 0.02, shiftB };
      const slower = flaggedShare(0.95, 0.05, 0.02, 400, 7, host);
      expect(slower.unchanged).toBeLessThan(0.05);
    });
  }

  it('takes fewer process pairs, and flags more, on a cell whose B/A moves with the machine when the speed is timed', () => {
    const moved = { sd: 0.1, slope: 1, readSd: 0.02 };
    const mean = (xs: number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
    const cells = (timed: boolean) => {
      const normal = normals(6);
      return Array.from({ length: 200 }, () => simulateCell(0.95, 0.05, 0.02, normal, { ...moved, timed }));
    };
    const [timed, untimed] = [cells(true), cells(false)];
    const flagged = (xs: { verdict: string }[]): number => xs.filter((c) => c.verdict === 'regressed').length;
    expect(untimed.every((c) => !c.adjusted)).toBe(true);
    expect(mean(timed.map((c) => c.pairs))).toBeLessThan(0.5 * mean(untimed.map((c) => c.pairs)));
    expect(flagged(timed)).toBeGreaterThan(flagged(untimed));
  });

  it('stays quiet on a negligible real change (1 %) most of the time', () => {
    expect(flaggedShare(0.99, 0.07, 0, 1000, 3).flagged).toBeLessThan(0.1);
  });
});
