import { describe, expect, it } from 'vitest';
import { cellFlags, cellStatus, failedAnswersReason, hasCountMismatch, isClientBound, isUnstable } from '../src/bench/cell-status.ts';
import { CLIENT_BOUND_CPU_PERCENT, UNSTABLE_CV } from '../src/model/thresholds.ts';
import { flagLabel, percent } from '../src/report/flags.ts';
import { makeRun } from './fixtures.ts';

const withClientCpu = (...cpus: number[]) => cpus.map((cpuPercent) => makeRun({ client: { cpuPercent } }));
const withRps = (...rps: number[]) => rps.map((requestsPerSec) => makeRun({ requestsPerSec }));

describe('client-bound', () => {
  it('uses a 90 % threshold', () => {
    expect(CLIENT_BOUND_CPU_PERCENT).toBe(90);
  });

  it('flags a median client CPU of 95', () => {
    expect(isClientBound(withClientCpu(95))).toBe(true);
    expect(isClientBound(withClientCpu(50, 95, 97))).toBe(true);
  });

  it('includes the threshold itself', () => {
    expect(isClientBound(withClientCpu(90))).toBe(true);
  });

  it('ignores one busy run when the median is below', () => {
    expect(isClientBound(withClientCpu(40, 60, 99))).toBe(false);
    expect(isClientBound([])).toBe(false);
  });
});

describe('unstable', () => {
  it('uses a CV threshold of 0.10', () => {
    expect(UNSTABLE_CV).toBe(0.1);
  });

  it('flags a CV of 0.2', () => {
    // mean 1000, sample std dev 200 -> CV 0.2
    expect(isUnstable(withRps(800, 1000, 1200))).toBe(true);
  });

  it('accepts a CV of 0.05 and a single run', () => {
    // mean 1000, sample std dev 50 -> CV 0.05
    expect(isUnstable(withRps(950, 1000, 1050))).toBe(false);
    expect(isUnstable(withRps(1000))).toBe(false);
  });
});

describe('count-mismatch', () => {
  it('allows up to two in-flight requests per connection (one at each edge of the run)', () => {
    const runs = [makeRun({ serverCount: 10_200, clientCount: 10_000 })];
    expect(hasCountMismatch(runs, 100)).toBe(false);
    expect(hasCountMismatch(runs, 99)).toBe(true);
  });

  it('flags a mismatch in any run, in either direction', () => {
    const runs = [makeRun(), makeRun({ serverCount: 9_000, clientCount: 10_000 })];
    expect(hasCountMismatch(runs, 100)).toBe(true);
  });
});

describe('cellFlags', () => {
  it('lists every flag that applies in a fixed order', () => {
    const runs = [
      makeRun({ requestsPerSec: 800, client: { cpuPercent: 95 }, serverCount: 0 }),
      makeRun({ requestsPerSec: 1000, client: { cpuPercent: 95 } }),
      makeRun({ requestsPerSec: 1200, client: { cpuPercent: 95 } }),
    ];
    expect(cellFlags(runs, { connections: 10, countsAvailable: true })).toEqual(['client-bound', 'unstable', 'count-mismatch']);
  });

  it('skips the count check when the server cannot count', () => {
    const runs = [makeRun({ serverCount: 0 })];
    expect(cellFlags(runs, { connections: 10, countsAvailable: false })).toEqual([]);
  });
});

describe('cellStatus', () => {
  it('is ok when every answer was a timely 2xx', () => {
    expect(cellStatus([makeRun(), makeRun()])).toEqual({ status: 'ok' });
  });

  it('is invalid with errors, and says how many over how many runs', () => {
    const runs = [makeRun({ errors: 2 }), makeRun({ errors: 1, non2xx: 1 }), makeRun()];
    expect(cellStatus(runs)).toEqual({ status: 'invalid', reason: '3 errors, 1 non-2xx over 3 runs' });
  });

  it('is invalid when a run completed no request', () => {
    expect(cellStatus([makeRun(), makeRun({ requests: 0, requestsPerSec: 0 })])).toEqual({
      status: 'invalid',
      reason: '1 run completed no request: lengthen --duration',
    });
  });

  it('is overloaded, not invalid, when requests timed out while others were answered', () => {
    const runs = [makeRun({ timeouts: 1, errors: 2 })];
    expect(failedAnswersReason(runs)).toBeUndefined();
    expect(cellStatus(runs)).toEqual({ status: 'ok' });
    expect(cellFlags(runs, { connections: 10, countsAvailable: true })).toContain('overloaded');
  });

  it('is invalid with errors that come without any timeout, singular where it is one', () => {
    expect(failedAnswersReason([makeRun({ errors: 1 })])).toBe('1 error over 1 run');
  });

  it('is overloaded, not invalid, when every request of a run timed out; too short when none did', () => {
    const runs = [makeRun({ timeouts: 5 }), makeRun({ timeouts: 3, requests: 0 })];
    expect(cellFlags(runs, { connections: 10, countsAvailable: true })).toContain('overloaded');
    expect(cellStatus(runs)).toEqual({ status: 'ok' });
    expect(cellStatus([makeRun({ requests: 0 })]).reason).toBe('1 run completed no request: lengthen --duration');
  });

  it('is invalid when validation failed, whatever the runs', () => {
    expect(cellStatus([makeRun()], 'expected 200, got 500')).toEqual({
      status: 'invalid',
      reason: 'validation failed: expected 200, got 500',
    });
  });

  it('is invalid with no runs', () => {
    expect(cellStatus([])).toEqual({ status: 'invalid', reason: 'no runs measured' });
  });
});

describe('overload as a reader sees it', () => {
  it('gives shares as percentages without a false zero', () => {
    expect([percent(0), percent(0.00004), percent(0.045), percent(0.961)]).toEqual(['0 %', '< 0.1 %', '4.5 %', '96 %']);
  });

  it('labels the overloaded flag with the share that timed out and the timeout', () => {
    const cell = {
      requestsPerSec: { median: 31, ci95: [31, 31] as [number, number], cv: 0, runs: [31] },
      overload: { sent: 1000, timeouts: 961, errors: 0, timeoutShare: 0.961, errorShare: 0, timeoutSec: 10 },
    };
    expect(flagLabel('overloaded', cell)).toBe('⚠ overloaded: 96 % of requests timed out after 10 s');
  });
});
