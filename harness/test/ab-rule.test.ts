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
 * One cell through bench:ab's schedule: pairs of processes of AB_PLAN.roundsPerProcess rounds,
 * B's true rate `ratio` times A's, each run's rate off by a normal share with sd `roundSd / √2`
 * (so one round's B/A scatters by `roundSd`), and each of B's processes off from its A by a
 * normal share with sd `processSd` for all its rounds (a process that runs apart by itself).
 * Its verdict and how many process pairs it took.
 */
function simulateCell(ratio: number, roundSd: number, processSd: number, normal: () => number): { verdict: string; pairs: number } {
  const a: RunResult[] = [];
  const b: RunResult[] = [];
  const per = AB_PLAN.roundsPerProcess;
  for (let pair = 1; pair <= AB_PLAN.maxPairs; pair++) {
    const apart = Math.exp(processSd * normal());
    for (let r = 0; r < per; r++) {
      const round = (pair - 1) * per + r + 1;
      const run = (rate: number): RunResult =>
        makeRun({ requestsPerSec: rate * Math.exp((roundSd / Math.SQRT2) * normal()), round, serverProcess: pair });
      a.push(run(1000));
      b.push(run(1000 * ratio * apart));
    }
    if (pair >= AB_PLAN.minPairs && abNeed(a, b, MARGIN, AB_PLAN.maxPairs) === 0) break;
  }
  const cell = (label: string, runDetails: RunResult[]) => ({
    ...makeCell({ runtime: 'node', scenario: 'checksum', mode: 'sync', runtimeLabel: label }),
    runDetails,
  });
  return { verdict: judgeAb(cell('node-A', a), cell('node-B', b), MARGIN).verdict, pairs: a.length / per };
}

function flaggedShare(ratio: number, roundSd: number, processSd: number, cells: number, seed: number): { flagged: number; capped: number } {
  const normal = normals(seed);
  let flagged = 0;
  let capped = 0;
  for (let i = 0; i < cells; i++) {
    const cell = simulateCell(ratio, roundSd, processSd, normal);
    if (cell.verdict === 'regressed' || cell.verdict === 'improved') flagged++;
    if (cell.pairs === AB_PLAN.maxPairs) capped++;
  }
  return { flagged: flagged / cells, capped: capped / cells };
}

describe("bench:ab's rule on simulated cells", () => {
  // Round sd 0.07 is the checksum on Node here, 0.10 a cell between it and fib on Deno (0.12-0.19);
  // 0.03 between processes is a process that runs apart by itself for its whole life.
  for (const [roundSd, processSd] of [
    [0.07, 0],
    [0.1, 0],
    [0.07, 0.03],
  ] as const) {
    it(`flags same-code pairs in under 1 in 20 cells and a 5 % change in 9 in 10 (a round's B/A scattering by ${roundSd}, a process's by ${processSd})`, () => {
      const same = flaggedShare(1, roundSd, processSd, 2000, 1);
      const slower = flaggedShare(0.95, roundSd, processSd, 400, 2);
      expect(same.flagged).toBeLessThan(0.05);
      expect(slower.flagged).toBeGreaterThanOrEqual(0.9);
      // the goal, not the cap, ends nearly every cell: the power is the rule's, not the cap's luck
      expect(slower.capped).toBeLessThan(0.05);
    });
  }

  it('stays quiet on a negligible real change (1 %) most of the time', () => {
    expect(flaggedShare(0.99, 0.07, 0, 1000, 3).flagged).toBeLessThan(0.1);
  });
});
