import { describe, expect, it } from 'vitest';
import * as regex from '../src/scenarios/regex.ts';

const input = (query: string) => regex.input(new URLSearchParams(query));

describe('regex scenario', () => {
  it('by default backtracks through 2^20 ways to fail on 20 a\'s and a "!"', () => {
    expect(input('')).toEqual({ n: 20 });
    expect(regex.sync(input(''))).toEqual({ n: 20, length: 21, matched: false });
  });

  it('fails every crafted input, whatever its length', () => {
    for (const n of [1, 2, 10]) expect(regex.sync({ n })).toEqual({ n, length: n + 1, matched: false });
  });

  it('gives the worker pool a timeout far above the default cost and below the worst', () => {
    expect(regex.timeoutMs).toBeGreaterThan(0);
    expect(regex.timeoutMs).toBeLessThan(1000);
  });

  it.each([
    ['n=0', /n must be an integer from 1 to 26, got "0"/],
    ['n=27', /n must be an integer from 1 to 26, got "27"/],
    ['n=26&n=1', /n must be an integer from 1 to 26, got "26,1"/],
  ])('?%s is out of bounds: a RangeError naming them', (query, message) => {
    expect(() => input(query)).toThrow(RangeError);
    expect(() => input(query)).toThrow(message);
  });
});
