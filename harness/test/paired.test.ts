import { describe, expect, it } from 'vitest';
import { halfWidthShare, holdsOne, pairedRatioInterval, roundRatios } from '../src/stats/paired.ts';
import { makeRun } from './fixtures.ts';

describe('pairedRatioInterval', () => {
  it('gives the geometric mean ratio with a t interval on the log ratios', () => {
    // logs of 2, 2, 2: no spread
    expect(pairedRatioInterval([2, 2, 2])).toEqual({ ratio: 2, ci95: [2, 2], pairs: 3 });
    // t(2) = 4.303 on the logs of 1.1, 1.2, 1.3
    const logs = [1.1, 1.2, 1.3].map(Math.log);
    const m = logs.reduce((a, b) => a + b) / 3;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / 2);
    const half = (4.303 * sd) / Math.sqrt(3);
    const r = pairedRatioInterval([1.1, 1.2, 1.3]);
    expect(r?.ratio).toBeCloseTo(Math.exp(m), 3);
    expect(r?.ci95[0]).toBeCloseTo(Math.exp(m - half), 3);
    expect(r?.ci95[1]).toBeCloseTo(Math.exp(m + half), 3);
    expect(r?.ci95[0]).toBeLessThan(1);
  });

  it('is symmetric in over and base: the reciprocal pairs give the reciprocal interval', () => {
    const up = pairedRatioInterval([1.5, 1.7, 1.6, 1.8])!;
    const down = pairedRatioInterval([1 / 1.5, 1 / 1.7, 1 / 1.6, 1 / 1.8])!;
    expect(down.ratio).toBeCloseTo(1 / up.ratio, 3);
    expect(down.ci95[0]).toBeCloseTo(1 / up.ci95[1], 3);
  });

  it('has no interval from fewer than three pairs or a ratio that is not positive', () => {
    expect(pairedRatioInterval([1, 2])).toBeUndefined();
    expect(pairedRatioInterval([1, 0, 2])).toBeUndefined();
  });

  it('cancels a drift that moves both cells of a pair alike, where unpaired medians would not', () => {
    // the machine at full speed, then half: each pair's async is 1.2x its sync
    const sync = [100, 50, 100, 50, 100, 50];
    const over = sync.map((s, i) => makeRun({ requestsPerSec: s * 1.2, round: i + 1 }));
    const base = sync.map((s, i) => makeRun({ requestsPerSec: s, round: i + 1 }));
    const paired = pairedRatioInterval(roundRatios(over, base))!;
    expect(paired.ratio).toBeCloseTo(1.2, 6);
    expect(paired.ci95[1] - paired.ci95[0]).toBeLessThan(1e-6);
  });
});

describe('roundRatios', () => {
  it('pairs runs by round and leaves out runs without a partner or a round', () => {
    const over = [makeRun({ requestsPerSec: 30, round: 1 }), makeRun({ requestsPerSec: 40, round: 2 }), makeRun({ requestsPerSec: 50 })];
    const base = [makeRun({ requestsPerSec: 20, round: 2 }), makeRun({ requestsPerSec: 10, round: 3 })];
    expect(roundRatios(over, base)).toEqual([2]);
  });
});

describe('holdsOne and halfWidthShare', () => {
  it('reads an interval holding 1 as no measurable difference', () => {
    expect(holdsOne([0.9, 1.1])).toBe(true);
    expect(holdsOne([1.01, 1.2])).toBe(false);
  });

  it('states the half-width as a share of the median, Infinity without an interval', () => {
    expect(halfWidthShare({ median: 200, ci95: [190, 210] })).toBeCloseTo(0.05);
    expect(halfWidthShare({ median: 200, ci95: [200, 200], intervalNote: '2 runs' })).toBe(Infinity);
  });
});

describe('pairedRatioText', () => {
  it('says how many paired rounds a ratio rests on, and nothing for unpaired runs', async () => {
    const { pairedRatioText, precisionText } = await import('../src/present/precision.ts');
    const base = { throughput: 1.04, p99: 1, probeP99: 1 };
    expect(pairedRatioText({ ...base, pairedThroughput: 1.02, throughputCi95: [0.95, 1.08], pairs: 6 })).toBe('6 pairs');
    expect(pairedRatioText(base)).toBeUndefined();
    expect(precisionText({ median: 100, ci95: [96.9, 103.1], cv: 0.02, runs: [], halfWidthShare: 0.031 })).toBe('±3.1 %');
  });
});
