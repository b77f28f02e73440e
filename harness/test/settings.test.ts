import { describe, expect, it } from 'vitest';
import { parsePlan } from '../src/bench/plan.ts';
import { reportParameters, scheduleSettings } from '../src/bench/settings.ts';

describe("one model of a run's settings", () => {
  it("derives the report's parameters from the plan, in the report's field order", () => {
    const plan = parsePlan(['--quick', '--connections', '10,50', '--cross-check', 'hello', '--keep-freed-memory', '--target-cv', '0.05']);
    const parameters = reportParameters(plan, { cold: { ok: false, reason: 'no fincore' }, noWrk: 'wrk not found' });
    expect(Object.keys(parameters)).toEqual([
      'connections',
      'connectionsSweep',
      'durationSec',
      'warmupSec',
      'runs',
      'probeRatePerSec',
      'hashCost',
      'fibN',
      'sleepMs',
      'fileCount',
      'fileSizeBytes',
      'fileCache',
      'coldUnavailable',
      'crossCheck',
      'schedule',
      'timeoutSec',
      'drainCapSec',
      'minRequests',
      'warmupMaxSec',
      'targetCv',
      'maxRuns',
      'allocator',
      'scenarios',
      'serverEnv',
    ]);
    expect(parameters).toMatchObject({
      connections: 10,
      connectionsSweep: [10, 50],
      durationSec: plan.durationSec,
      runs: plan.runs,
      fileCache: 'warm',
      coldUnavailable: 'no fincore',
      crossCheck: { reason: 'wrk not found' },
      targetCv: 0.05,
      maxRuns: plan.maxRuns,
    });
  });

  it('one connection count is no sweep; a cross-check not asked for says so', () => {
    const plan = parsePlan(['--quick', '--connections', '100']);
    const parameters = reportParameters(plan, { cold: undefined, noWrk: undefined });
    expect(parameters.connections).toBe(100);
    expect(parameters).not.toHaveProperty('connectionsSweep');
    expect(parameters.crossCheck).toEqual({ reason: 'not asked for' });
    expect(reportParameters(parsePlan(['--cross-check', 'hello']), { cold: { ok: true }, noWrk: undefined })).toMatchObject({
      crossCheck: ['hello'],
      fileCache: 'cold',
    });
  });

  it('each pass carries its own connections; the rest of its settings are the plan', () => {
    const plan = parsePlan(['--connections', '1,10,100', '--runs', '4']);
    expect(plan.connections).toEqual([1, 10, 100]);
    expect(parsePlan(['--connections', '7']).connections).toEqual([7]);
    const pass = scheduleSettings(plan, 10);
    expect(pass).toMatchObject({ connections: 10, runs: 4, durationSec: plan.durationSec, timeoutSec: plan.timeoutSec });
    expect(pass).not.toHaveProperty('scenarios');
  });
});
