/**
 * The one module that judges the host's speed: the session's verdict comes from the independent
 * check, a run's and a cell's from the sampler against its floor, the shared host from other
 * processes' CPU; each reader gets the same answer, both ways.
 */
import { describe, expect, it } from 'vitest';
import type { CellResult, RunSpeed } from '../src/model/cell.ts';
import type { HostCheck } from '../src/model/environment.ts';
import { hostHealth } from '../src/report/text/host-health.ts';
import { cellNoteList } from '../src/report/text/cell-notes.ts';
import {
  cellMachineMoved,
  checkAcross,
  checkThreshold,
  checkVerdict,
  hostVerdict,
  keptRuns,
  runReadings,
  samplerMove,
  sessionSpread,
} from '../src/system/host-speed.ts';
import { environment, makeCell, makeMachineSpeed } from './fixtures.ts';

const before = { at: '2026-11-25T17:00:00Z', alone: [2.15, 2.15], together: [2.14, 2.14] };
const after = (ms: number) => ({ at: '2026-11-25T17:06:00Z', alone: [ms, ms], together: [ms, ms] });
const check = (afterMs: number | undefined, floor = 0.01): HostCheck => {
  const base = { n: 28, calls: 20, before, floor, threshold: checkThreshold(floor) };
  if (afterMs === undefined) return base;
  const change = Math.round((2.145 / afterMs - 1) * 10_000) / 10_000;
  return { ...base, after: after(afterMs), change, moved: Math.abs(change) > base.threshold };
};
const at = (coresWorth: number, tickCv = 0.01): RunSpeed => ({ coresWorth, min: coresWorth, max: coresWorth, ticks: 16, tickCv });
// The sampler saw one run of a cell well off its others: what it says at the top where no check stands.
const samplerMoved = makeMachineSpeed({
  moved: { beyondFloor: true, worst: { cell: 'node hash/sync', deviation: 0.45, floor: 0.05 } },
});
const cell = (scenario: string, flags: ('shared-host' | 'unstable')[] = []) =>
  makeCell({ runtime: 'node', scenario: scenario as 'hash', mode: 'sync', flags });

describe('the session: did the host hold', () => {
  it('holds within the threshold the check set itself, and moves beyond it', () => {
    expect(checkThreshold(0.01)).toBe(0.05);
    expect(checkThreshold(0.04)).toBe(0.12);
    expect(checkVerdict(check(2.16))).toBe('held');
    expect(checkVerdict(check(3.0))).toBe('moved');
    expect(checkVerdict(check(undefined))).toBe('start-only');
    // A check whose own floor is wider than ±10 % cannot call the host steady.
    expect(checkVerdict(check(2.16, 0.2))).toBe('untold');
  });

  it('lets the check decide: no sampler warning beside a check that held or moved, the sampler only without a complete one', () => {
    const held = hostVerdict({ ...environment, hostCheck: check(2.16), machineSpeed: samplerMoved }, []);
    expect(held.check?.reading).toBe('held');
    expect(held.sampler).toBeUndefined();
    const moved = hostVerdict({ ...environment, hostCheck: check(3.0), machineSpeed: samplerMoved }, []);
    expect(moved.check?.reading).toBe('moved');
    expect(moved.sampler).toBeUndefined();
    expect(hostVerdict({ ...environment, hostCheck: check(undefined), machineSpeed: samplerMoved }, []).sampler).toMatchObject({
      kind: 'beyond-floor',
      cell: 'node hash/sync',
    });
    expect(hostVerdict({ ...environment, machineSpeed: samplerMoved }, []).sampler?.kind).toBe('beyond-floor');
    // An old report, no floor recorded: its per-run range alone, 1.25x or more.
    const { moved: _none, ...old } = samplerMoved ?? { vcpus: 2, pinned: true, intervalMs: 250, overheadPercent: 0, samples: 0 };
    expect(hostVerdict({ ...environment, machineSpeed: old }, []).sampler).toMatchObject({ kind: 'span', ratio: 1.9 });
    expect(hostVerdict({ ...environment, machineSpeed: { ...old, coresWorth: { min: 1.6, max: 1.9 } } }, []).sampler).toBeUndefined();
  });

  it('says the host held at the top, nothing of the machine moving, while the scattering cell says so on itself', () => {
    const runs = [at(1.8), at(1.82), at(1.0), at(1.79)];
    const moved = cellMachineMoved(runs, 0.02);
    expect(moved).toEqual({ runs: 1, deviation: 0.443, floor: 0.05 });
    const scattered = { ...cell('hash'), machineMoved: moved };
    const env = { ...environment, hostCheck: check(2.16), machineSpeed: samplerMoved };
    const health = hostHealth(env, [scattered, cell('fib')]);
    expect(health?.warn).toBe(false);
    expect(health?.text).toMatch(/^✓ The host held: independent check/);
    expect(health?.text).not.toMatch(/speed moved|hash/);
    const notes = (c: CellResult) => cellNoteList(c).map((n) => n.text);
    expect(notes(scattered)).toContain("〰 machine's speed varied in 1 run (up to 44.3 % from the cell's others; sampler floor ±5.0 %)");
    expect(notes(cell('fib')).join(', ')).not.toContain("machine's speed");
  });

  it('lists the cells that shared the host, beside a check that held', () => {
    const cells = [cell('hash', ['shared-host']), cell('fib'), cell('json', ['unstable'])];
    const verdict = hostVerdict({ ...environment, hostCheck: check(2.16) }, cells);
    expect(verdict.shared.map((c) => c.scenario)).toEqual(['hash']);
    const health = hostHealth({ ...environment, hostCheck: check(2.16) }, cells, true);
    expect(health?.warn).toBe(true);
    expect(health?.text).toMatch(/^✓ The host held: .* ⚠ Other processes used the CPU during runs of 1 of 3 cells \(node hash\/sync\)/);
    expect(hostHealth({ ...environment, hostCheck: check(2.16) }, [cell('fib')])?.text).toMatch(/No cell shared the host/);
  });
});

describe('a run and a cell, from the sampler', () => {
  it('reads a run against its own cell: slow below 0.8 of the median, moved beyond twice its floor, quiet within it', () => {
    const readings = runReadings([at(1.8), at(1.85), at(1.3), at(1.6), undefined, at(1.82)]);
    expect(readings.map((r) => r?.slow)).toEqual([false, false, true, false, undefined, false]);
    expect(readings.map((r) => r?.moved)).toEqual([false, false, true, true, undefined, false]);
    // Fewer than three measured runs cannot tell "slow" from "the other one was fast".
    expect(runReadings([at(1.8), at(1.0)])).toEqual([undefined, undefined]);
    // A noisy run's own ticks raise its floor: the same gap is no move.
    expect(runReadings([at(1.8), at(1.82), at(1.6, 0.3), at(1.79)])[2]?.moved).toBe(false);
    expect(cellMachineMoved([at(1.8), at(1.82), at(1.78), at(1.79)])).toBeUndefined();
  });

  it('agrees with the session summary: the report says the sampler moved exactly when some cell carries it', () => {
    const cells = [
      { cell: 'node hash/sync', runs: [at(1.8), at(1.82), at(1.79)] },
      { cell: 'node fib/worker', runs: [at(1.1), at(1.12), at(0.7)] },
    ];
    expect(samplerMove(cells, 0.02)).toEqual({ beyondFloor: true, worst: { cell: 'node fib/worker', deviation: 0.364, floor: 0.05 } });
    expect(cells.map((c) => cellMachineMoved(c.runs, 0.02) !== undefined)).toEqual([false, true]);
    expect(samplerMove(cells.slice(0, 1), 0.02).beyondFloor).toBe(false);
  });

  it('keeps the runs not taken on a slow machine, unless fewer than three remain', () => {
    const runs = [{ slowMachine: true as const }, {}, {}, {}];
    expect(keptRuns(runs)).toHaveLength(3);
    expect(keptRuns(runs.slice(0, 3))).toHaveLength(3);
  });
});

describe('two sessions', () => {
  it('takes their spread from the reference loops, else the checks, else says neither measured', () => {
    const loop = (minMs: number, maxMs: number, medianMs: number) => ({ unit: 'fib(25)', minMs, maxMs, medianMs, rounds: 12 });
    const a = { ...environment, referenceLoop: loop(0.7, 0.74, 0.72), hostCheck: check(2.16) };
    const b = { ...environment, referenceLoop: loop(0.7, 0.78, 0.72), hostCheck: check(2.16) };
    expect(sessionSpread(a, b)).toMatchObject({
      sd: expect.closeTo(Math.log(0.78 / 0.7) / 4, 6),
      source: "from the reports' reference loops",
    });
    const { referenceLoop: _a, ...checkedA } = a;
    expect(sessionSpread(checkedA, b)?.source).toBe("from the reports' host checks");
    expect(sessionSpread(environment, environment)).toBeUndefined();
  });

  it('says whether the host held from the first start to the last end', () => {
    expect(checkAcross(check(2.16), check(2.2))).toMatchObject({ held: true });
    expect(checkAcross(check(2.16), check(3.0))).toMatchObject({ held: false });
    expect(checkAcross(check(2.16), check(undefined))).toBeUndefined();
  });
});
