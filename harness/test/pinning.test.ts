import { describe, expect, it } from 'vitest';
import { planPinning } from '../src/system/pinning.ts';

describe('planPinning', () => {
  it('gives the load generator CPU 0 and the server the rest from 4 CPUs up', () => {
    expect(planPinning(4, true)).toEqual({ client: '0', server: '1-3' });
    expect(planPinning(16, true)).toEqual({ client: '0', server: '1-15' });
  });

  it('does not pin on 2 CPUs, and says why', () => {
    expect(planPinning(2, true)).toEqual({ reason: expect.stringMatching(/^2 CPUs: pinning would leave the server one core/) });
  });

  it('does not pin without taskset', () => {
    expect(planPinning(8, false)).toEqual({ reason: expect.stringMatching(/taskset is not installed/) });
  });
});
