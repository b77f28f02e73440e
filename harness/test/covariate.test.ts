import { describe, expect, it } from 'vitest';
import { adjustedMean } from '../src/stats/covariate.ts';

describe('adjustedMean', () => {
  it('is the least-squares intercept with its t interval on n - 2 degrees of freedom', () => {
    // By hand: x̄ 0.5, ȳ 2.25, Sxx 5, Sxy 4.5, Syy 4.75; slope 0.9, intercept 1.8; residual 0.7 on
    // 2 df, so se = √(0.35 · (1/4 + 0.25/5)) = 0.3240 and the half-width 4.303 · 0.3240.
    const fit = adjustedMean([1, 2, 2, 4], [-1, 0, 1, 2]);
    expect(fit?.mean).toBeCloseTo(1.8, 10);
    expect(fit?.slope).toBeCloseTo(0.9, 10);
    expect(fit?.df).toBe(2);
    expect(fit?.half).toBeCloseTo(4.303 * Math.sqrt(0.105), 6);
    expect(fit?.correlation).toBeCloseTo(4.5 / Math.sqrt(5 * 4.75), 10);
  });

  it('takes out what moved with the covariate: an exact line leaves a zero-width interval at its intercept', () => {
    const x = [0.1, -0.05, 0.02, -0.08, 0.04];
    const fit = adjustedMean(
      x.map((v) => -0.05 + 0.7 * v),
      x,
    );
    expect(fit?.mean).toBeCloseTo(-0.05, 12);
    expect(fit?.half).toBeCloseTo(0, 12);
  });

  it('is undefined with fewer than 4 points or a covariate that never moved', () => {
    expect(adjustedMean([1, 2, 3], [0, 1, 2])).toBeUndefined();
    expect(adjustedMean([1, 2, 3, 4], [1, 1, 1, 1])).toBeUndefined();
    expect(adjustedMean([1, 2, 3, 4], [1, 2, 3])).toBeUndefined();
    // The same reading in every pair can leave its mean one rounding error off: still no slope to fit.
    const same = Math.log(1.9 / 1.8);
    const xs = Array.from({ length: 5 }, () => same);
    expect(xs.reduce((a, b) => a + b, 0) / xs.length).not.toBe(same);
    expect(adjustedMean([-0.05, -0.06, -0.055, -0.05, -0.06], xs)).toBeUndefined();
  });
});
