/**
 * A run's report from its folder: each cell read once as written, its profile from beside it,
 * and whether its runs read the machine apart derived from the session's floor, not written back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunResult, RunSpeed } from '../src/model/cell.ts';
import { makeRunDir, writeCell, writeMeta } from '../src/model/run-files.ts';
import { benchReport, interruptedReport } from '../src/report/bench-files.ts';
import { environment, makeCell, makeMachineSpeed, parameters } from './fixtures.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bench-files-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const at = (coresWorth: number): RunSpeed => ({ coresWorth, min: coresWorth, max: coresWorth, ticks: 16, tickCv: 0.01 });
const runs = (...speeds: number[]) => speeds.map((s) => ({ machine: at(s) }) as RunResult);
const machineSpeed = makeMachineSpeed();

describe("a run's report from its folder", () => {
  it("says which cell's machine moved from the session's floor, its file left as written", () => {
    const runDir = makeRunDir(root);
    const scattered = writeCell(
      runDir,
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync', runDetails: runs(1.8, 1.82, 1.0, 1.79) }),
      false,
    );
    writeCell(runDir, makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync', runDetails: runs(1.8, 1.82, 1.78, 1.79) }), false);
    const written = readFileSync(scattered, 'utf8');
    const meta = { createdAt: '2026-11-29T10:00:00Z', environment: { ...environment, machineSpeed }, parameters, runtimes: [] };
    const report = benchReport({ runDir, meta, status: 'complete' });
    const moved = Object.fromEntries(report.results.map((c) => [c.scenario, c.machineMoved]));
    expect(moved).toEqual({ fib: undefined, hash: { runs: 1, deviation: 0.443, floor: 0.05 } });
    expect(readFileSync(scattered, 'utf8')).toBe(written);
    // Without the sampler's summary (a stop at once before it was taken) no cell says it.
    expect(
      benchReport({ runDir, meta: { ...meta, environment }, status: 'interrupted' }).results.every((c) => c.machineMoved === undefined),
    ).toBe(true);
    writeMeta(runDir, meta);
    expect(interruptedReport(runDir)?.results.find((c) => c.scenario === 'hash')?.machineMoved?.runs).toBe(1);
  });
});
