/** The same question at another core count: requests/s predicted from CPU costs per request, on fixed figures. */
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../src/model/cell.ts';
import type { Report } from '../src/model/report.ts';
import { coreCountRows, predictedRps } from '../src/report/core-count.ts';
import { coreCountBlock } from '../src/docs/core-count-block.ts';
import { environment, makeCell } from './fixtures.ts';

describe('predictedRps', () => {
  it('is bounded by the CPUs over the whole cost and by one CPU over the loop’s cost', () => {
    // sync: 2.5 ms on the loop: 400 req/s whatever the CPUs.
    expect(predictedRps({ loopMs: 2.5, poolMs: 0, helperMs: 0 }, 1)).toBeCloseTo(400, 6);
    expect(predictedRps({ loopMs: 2.5, poolMs: 0, helperMs: 0 }, 2)).toBeCloseTo(400, 6);
    // worker: 0.2 ms on the loop, 2.6 ms off it: 357 req/s on one CPU, 714 on two.
    expect(predictedRps({ loopMs: 0.2, poolMs: 2.6, helperMs: 0 }, 1)).toBeCloseTo(1000 / 2.8, 6);
    expect(predictedRps({ loopMs: 0.2, poolMs: 2.6, helperMs: 0 }, 2)).toBeCloseTo(2000 / 2.8, 6);
    expect(predictedRps({ loopMs: 0, poolMs: 0, helperMs: 0 }, 1)).toBeUndefined();
  });
});

describe('coreCountRows', () => {
  const cell = (mode: 'sync' | 'worker', rps: number, cpus: number, cost: CellResult['cpuPerRequestMs']): CellResult =>
    makeCell({
      runtime: 'node',
      scenario: 'fib',
      mode,
      requestsPerSec: { median: rps, ci95: [rps, rps], cv: 0, runs: [rps] },
      serverCpus: cpus,
      ...(cost === undefined ? {} : { cpuPerRequestMs: cost }),
    });
  const report = (cpus: number, cells: CellResult[]): Report =>
    ({
      createdAt: '2026-11-26T23:50:00Z',
      status: 'complete',
      environment: {
        ...environment,
        cpu: { ...environment.cpu, count: 2 },
        pinning: { client: '0', server: '1', clientCpus: 1, serverCpus: cpus },
      },
      parameters: {},
      runtimes: [],
      results: cells,
      comparisons: [],
    }) as unknown as Report;
  const one = report(1, [
    cell('sync', 390, 1, { loopMs: 2.5, poolMs: 0, helperMs: 0 }),
    cell('worker', 350, 1, { loopMs: 0.2, poolMs: 2.6, helperMs: 0 }),
  ]);
  const two = report(1, [
    cell('sync', 395, 1, { loopMs: 2.5, poolMs: 0, helperMs: 0 }),
    cell('worker', 360, 1, { loopMs: 0.2, poolMs: 2.6, helperMs: 0 }),
  ]);

  it('predicts each side from the other side’s costs, and renders the worker’s gain predicted beside measured', () => {
    const rows = coreCountRows(one, two);
    expect(rows.map((r) => r.mode)).toEqual(['sync', 'worker']);
    expect(rows[1]?.at[0]?.predicted).toBeCloseTo(1000 / 2.8, 6);
    expect(rows[1]?.at[0]?.measured).toBe(350);
    const block = coreCountBlock(one, two, () => 'run');
    expect(block).toContain('req/s on 1 CPU: predicted → measured');
    expect(block).toMatch(/357 → 350 \(× sync: 0\.89x → 0\.90x; a bystander's p99 1\.00x sync's\)/);
  });

  it("leaves out a mode that does not do sync's work per answer, and says which and why", () => {
    const why = 'async answers once its read is done and leaves its pbkdf2 blockers running';
    const starve = (cpus: number, scenarioRps: [number, number, number]): Report => {
      const r = report(cpus, []);
      const modes = ['sync', 'async', 'worker'] as const;
      return {
        ...r,
        parameters: { scenarios: [{ name: 'starve', differentWork: { modes: ['async'], why, compares: "the read's p99" } }] },
        results: modes.map((mode, i) =>
          makeCell({
            runtime: 'node',
            scenario: 'starve',
            mode,
            requestsPerSec: { median: scenarioRps[i] ?? 0, ci95: [1, 1], cv: 0, runs: [1] },
            serverCpus: cpus,
            cpuPerRequestMs: { loopMs: 1, poolMs: 4, helperMs: 0 },
          }),
        ),
      } as unknown as Report;
    };
    const [a, b] = [starve(1, [200, 190, 180]), starve(2, [190, 350, 330])];
    expect(coreCountRows(a, b).map((r) => r.mode)).toEqual(['sync', 'worker']);
    const block = coreCountBlock(a, b, () => 'run');
    expect(block).not.toMatch(/\| starve +\| node +\| async/);
    expect(block).toContain(`Left out: starve async, whose requests/s are not the same work as sync's (${why})`);
  });
});
