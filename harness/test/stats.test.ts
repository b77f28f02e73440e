import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { describe, expect, it } from 'vitest';
import { ci95, cv, mean, median, roundFigure, sampleStdDev, summarize, tCritical95 } from '../src/stats/stats.ts';

describe('median and mean', () => {
  it('takes the middle of an odd count, the mean of the two middles of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is 0 for no values instead of NaN', () => {
    expect(median([])).toBe(0);
    expect(mean([])).toBe(0);
  });

  it('averages', () => {
    expect(mean([10, 12, 14])).toBe(12);
  });
});

describe('spread', () => {
  it('uses the n - 1 denominator', () => {
    // deviations -2, 0, 2: sum of squares 8, / (3 - 1) = 4, sqrt = 2
    expect(sampleStdDev([10, 12, 14])).toBe(2);
    expect(sampleStdDev([5])).toBe(0);
  });

  it('cv is std dev over mean', () => {
    expect(cv([10, 12, 14])).toBeCloseTo(2 / 12, 12);
  });

  it('cv is 0 when undefined: fewer than 2 values or a mean of 0', () => {
    expect(cv([]) + cv([7])).toBe(0);
    expect(cv([-1, 1])).toBe(0);
  });
});

describe('ci95', () => {
  it('uses Student t with df = n - 1', () => {
    expect(tCritical95(1)).toBe(12.706);
    expect(tCritical95(2)).toBe(4.303);
    expect(tCritical95(30)).toBe(2.042);
    expect(tCritical95(31)).toBe(2.04);
    expect(tCritical95(49)).toBe(2.01);
    expect(() => tCritical95(0)).toThrow(RangeError);
  });

  it("holds Student's t 0.975 quantile to 3 decimals, the table's to df 30 and past it, where bench:ab judges up to 50 process pairs", () => {
    for (let df = 1; df <= 60; df++) expect(tCritical95(df)).toBe(Number(tQuantile(0.975, df).toFixed(3)));
  });

  it('is mean ± t * s / sqrt(n)', () => {
    // mean 12, s 2, n 3: half-width 4.303 * 2 / sqrt(3) = 4.968676...
    const [low, high] = ci95([10, 12, 14]);
    expect(low).toBeCloseTo(12 - 4.968676, 5);
    expect(high).toBeCloseTo(12 + 4.968676, 5);
  });

  it('keeps Student t beyond 31 values, wider than the normal 1.96', () => {
    const xs = Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 9 : 11));
    const [low, high] = ci95(xs);
    expect((high - low) / 2).toBeCloseTo((2.04 * sampleStdDev(xs)) / Math.sqrt(32), 12);
  });

  it('collapses to the value for one run', () => {
    expect(ci95([42])).toEqual([42, 42]);
    expect(ci95([])).toEqual([0, 0]);
  });
});

describe('roundFigure', () => {
  it('keeps 3 decimals and never yields -0', () => {
    expect(roundFigure(1.23456)).toBe(1.235);
    expect(roundFigure(1.0005)).toBe(1.001);
    expect(Object.is(roundFigure(-0.0001), 0)).toBe(true);
  });
});

describe('summarize', () => {
  it('reports rounded median, CI, CV and the runs', () => {
    expect(summarize([14, 10, 12])).toEqual({
      median: 12,
      ci95: [7.031, 16.969],
      halfWidthShare: 0.4141,
      cv: 0.167,
      runs: [14, 10, 12],
    });
  });

  it('summarises no runs as zeros', () => {
    expect(summarize([])).toEqual({ median: 0, ci95: [0, 0], cv: 0, runs: [], intervalNote: 'no runs' });
  });

  it('gives no interval from fewer than 3 runs, and says so', () => {
    // The quick plan's 2 runs: t = 12.7 would make this "-76,581 to 100,281 req/s".
    expect(summarize([3000, 9000])).toEqual({
      median: 6000,
      ci95: [6000, 6000],
      // biome-ignore lint/suspicious/noApproximativeNumericConstant: the figure as rounded to three digits, not 1/√2
      cv: 0.707,
      runs: [3000, 9000],
      intervalNote: '2 runs: too few for an interval (3 or more)',
    });
  });

  it('never gives a negative lower bound for requests/s', () => {
    const wild = summarize([100, 5000, 200]);
    expect(wild.ci95[0]).toBe(0);
    expect(wild.ci95[1]).toBeGreaterThan(5000);
  });
});
