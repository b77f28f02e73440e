import { describe, expect, it } from 'vitest';
import { coresWorthSpan, medianUnit, runSpeed, tickSums, type SpeedSample } from '../src/system/speed-math.ts';
import { slowRuns } from '../src/system/host-speed.ts';
import { cellGroups, weightedPace } from '../src/bench/budget.ts';
import { cellsFor } from '../src/servers/scenarios.ts';
import { hostHealth } from '../src/report/text/host-health.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { renderHtml } from '../src/report/render/html.ts';
import { renderConsoleSummary } from '../src/report/render/console.ts';
import type { Environment } from '../src/model/environment.ts';
import type { Report } from '../src/model/report.ts';
import { environment } from './fixtures.ts';
import { htmlFixtureReport } from './fixtures/html-report.ts';

const sample = (cpu: number, at: number, cpuMs: number): SpeedSample => ({ cpu, at, cpuMs });

describe('speed sampler arithmetic', () => {
  // Reference: CPU 0's warm-up median 0.2 ms, CPU 1's 0.25 ms (the warm-up's, dated 0).
  const samples = [
    sample(0, 0, 0.2),
    sample(1, 0, 0.25),
    sample(0, 1000, 0.2),
    sample(1, 1003, 0.25), // both at full speed: 2.0
    sample(0, 1250, 0.4),
    sample(1, 1251, 0.5), // both at half: 1.0
    sample(0, 1500, 0.2),
    sample(1, 1502, 0.5), // one full, one half: 1.5
    sample(0, 1750, 0.2), // CPU 1 late: no tick
  ];

  it("takes the warm-up's median unit per CPU as full speed", () => {
    expect(medianUnit(samples)).toEqual(
      new Map([
        [0, 0.2],
        [1, 0.25],
      ]),
    );
  });

  it('sums the CPUs speeds per tick inside the window, skipping ticks missing a CPU', () => {
    expect(tickSums(samples, medianUnit(samples), 900, 2000)).toEqual([2, 1, 1.5]);
    expect(tickSums(samples, medianUnit(samples), 1200, 1300)).toEqual([1]);
  });

  it("gives a run's median cores' worth and range", () => {
    expect(runSpeed(samples, medianUnit(samples), 900, 2000)).toEqual({ coresWorth: 1.5, min: 1, max: 2, ticks: 3, tickCv: 0.333 });
    expect(runSpeed(samples, medianUnit(samples), 5000, 6000)).toBeUndefined();
  });

  it('flags a run below 0.8 of the median of its cell, never with fewer than three known', () => {
    const at = (coresWorth: number) => ({ coresWorth, min: coresWorth, max: coresWorth, ticks: 4 });
    expect(slowRuns([at(1.9), at(1.0), at(1.95), undefined, at(1.85)])).toEqual([1]);
    expect(slowRuns([at(1.9), at(1.6), at(1.95)])).toEqual([]);
    expect(slowRuns([at(1.9), at(1.0)])).toEqual([]);
    expect(coresWorthSpan([1.9, undefined, 1.0])).toEqual({ min: 1, max: 1.9 });
  });
});

describe('time budget and groups', () => {
  it('allows extra runs only while ahead of an even pace through the budget', () => {
    let now = 0;
    // Need 1 and no reserve for later cells: the even pace.
    const pace = weightedPace(100, 10, 0, 0, () => now);
    now = 15_000;
    expect(pace(0, 2)).toBe(true); // 15 s spent, 20 s is the share of the first 2 of 10
    now = 25_000;
    expect(pace(0, 2)).toBe(false);
    expect(pace(2, 2)).toBe(true);
  });

  it('groups the modes of each scenario together', () => {
    const groups = cellGroups(cellsFor(['hello', 'fib']));
    expect(groups.map((g) => g.map((c) => c.mode).join(' '))).toEqual(['baseline raw', 'sync async worker']);
  });
});

describe('a report read on a machine whose speed moved', () => {
  const speedOf = (min: number, max: number) => ({
    ...environment,
    machineSpeed: { vcpus: 2, pinned: true, intervalMs: 250, coresWorth: { min, max }, overheadPercent: 0.8, samples: 900 },
  });
  const moving = speedOf(0.84, 1.68);
  const steady = speedOf(1.85, 1.98);

  it('says so at the top of every renderer when the runs saw 1.25x or more between slowest and fastest', () => {
    const movingMachineText = (env: Environment) => hostHealth(env, [])?.text;
    expect(movingMachineText(moving)).toBe(
      "⚠ The machine's speed moved during this run: 0.84 to 1.68 cores' worth from run to run (2.0x). Each interval holds the spread of this run's own runs; a run minutes later on this machine may land outside it (`pnpm bench:compare` counts the cells that reproduce).",
    );
    expect(movingMachineText(speedOf(1.0, 1.24))).toBeUndefined();
    expect(movingMachineText(steady)).toBeUndefined();
    expect(movingMachineText(environment)).toBeUndefined();
    const report = (env: Environment): Report => ({ ...htmlFixtureReport(), environment: env });
    const markdownHead = (env: Environment) => renderMarkdown(report(env)).split('\n## ')[0] ?? '';
    expect(markdownHead(moving)).toContain("⚠ The machine's speed moved during this run: 0.84 to 1.68");
    expect(markdownHead(steady)).not.toContain('speed moved');
    const htmlHead = (env: Environment) => renderHtml(report(env), { chartJs: '', errorBarsJs: '' }).split('<h2')[0] ?? '';
    expect(htmlHead(moving)).toMatch(
      /class="banner warn" data-host-health>⚠ The machine&#39;s speed moved|class="banner warn" data-host-health>⚠ The machine's speed moved/,
    );
    expect(htmlHead(steady)).not.toContain('speed moved');
    expect(renderConsoleSummary(report(moving)).split('\n').slice(0, 3).join('\n')).toContain('speed moved during this run');
    expect(renderConsoleSummary(report(steady))).not.toContain('speed moved');
  });
});
