import { describe, expect, it } from 'vitest';
import { studentTCdf, studentTTwoSidedP } from '../src/stats/t-distribution.ts';

// Reference values from scipy 1.17 (scipy.stats.t.sf).
describe('studentTTwoSidedP', () => {
  it('gives p = 0.05 at the tabulated 95 % critical values', () => {
    expect(studentTTwoSidedP(2.776, 4)).toBeCloseTo(0.0500227783, 9);
    expect(studentTTwoSidedP(2.228, 10)).toBeCloseTo(0.0500117718, 9);
    expect(studentTTwoSidedP(12.706, 1)).toBeCloseTo(0.0500008024, 9);
  });

  it('gives p = 1 at t = 0 and p = 0 at an infinite t', () => {
    expect(studentTTwoSidedP(0, 5)).toBe(1);
    expect(studentTTwoSidedP(Number.POSITIVE_INFINITY, 5)).toBe(0);
  });

  it('is symmetric in the sign of t', () => {
    expect(studentTTwoSidedP(-2.776, 4)).toBe(studentTTwoSidedP(2.776, 4));
  });

  it('handles the fractional degrees of freedom of Welch-Satterthwaite', () => {
    expect(studentTTwoSidedP(2, 2.5)).toBeCloseTo(0.1573914958, 9);
    expect(studentTTwoSidedP(-3.5, 7.3)).toBeCloseTo(0.0093431385, 9);
    expect(studentTTwoSidedP(1.5, 30)).toBeCloseTo(0.1440659291, 9);
  });

  it('keeps relative precision far in the tail', () => {
    expect(studentTTwoSidedP(40, 3) / 3.4380680789158506e-5).toBeCloseTo(1, 9);
  });

  it('refuses degrees of freedom that are not positive', () => {
    expect(() => studentTTwoSidedP(1, 0)).toThrow(RangeError);
    expect(() => studentTTwoSidedP(1, Number.NaN)).toThrow(RangeError);
    expect(() => studentTCdf(1, -2)).toThrow(RangeError);
  });

  it('refuses a t statistic that is NaN', () => {
    expect(() => studentTTwoSidedP(Number.NaN, 3)).toThrow(RangeError);
    expect(() => studentTCdf(Number.NaN, 3)).toThrow(RangeError);
  });
});

describe('studentTCdf', () => {
  it('matches the closed form of the Cauchy distribution (df = 1)', () => {
    expect(studentTCdf(1, 1)).toBeCloseTo(0.75, 12);
    expect(studentTCdf(-1, 1)).toBeCloseTo(0.25, 12);
  });

  it('is 0.5 at t = 0 and matches known quantiles', () => {
    expect(studentTCdf(0, 3)).toBe(0.5);
    expect(studentTCdf(2.776, 4)).toBeCloseTo(0.9749886108, 9);
    expect(studentTCdf(-3.5, 7.3)).toBeCloseTo(0.0046715693, 9);
  });

  it('matches the closed form for df = 2: 1/2 + t / (2 sqrt(2 + t^2))', () => {
    for (const t of [-5, -0.3, 0.7, 4]) expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
  });
});
