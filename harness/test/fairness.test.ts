import { describe, expect, it } from 'vitest';
import { fairness } from '../src/stats/fairness.ts';

describe('fairness', () => {
  it('is 1 when every connection was served alike', () => {
    expect(fairness([17, 17, 17, 17, 17, 17, 17, 17, 17, 17])).toEqual({ connections: 10, jain: 1, maxOverMin: 1 });
  });

  it('falls towards 1/n when one connection takes nearly everything', () => {
    // One connection served 91 times, nine others once each: (100)^2 / (10 * (91^2 + 9)) = 0.121.
    expect(fairness([91, 1, 1, 1, 1, 1, 1, 1, 1, 1])).toEqual({ connections: 10, jain: 0.121, maxOverMin: 91 });
  });

  it('counts only connections that were served, and has nothing to say about none', () => {
    expect(fairness([4, 0, 2])).toEqual({ connections: 2, jain: 0.9, maxOverMin: 2 });
    expect(fairness([])).toBeUndefined();
    expect(fairness([0, 0])).toBeUndefined();
  });
});
