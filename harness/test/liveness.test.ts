import { describe, expect, it } from 'vitest';
import { drainDeadlineMs, progressVerdict, type ProgressSample } from '../src/servers/liveness.ts';

const at = (atMs: number, runNs: number, slices: number, state = 'S'): ProgressSample => ({ atMs, progress: { runNs, slices, state } });

describe('progressVerdict', () => {
  it('calls a main thread that keeps running or waking "working"', () => {
    expect(progressVerdict([at(0, 100, 1), at(1000, 200, 1), at(2000, 200, 2), at(3000, 200, 3)], 2000)).toEqual({ state: 'working' });
  });

  it('calls a blocked-in-Atomics.wait thread that still wakes "working", though its CPU time stands still', () => {
    const samples = Array.from({ length: 30 }, (_, i) => at(i * 100, 5_000, Math.floor(i / 2)));
    expect(progressVerdict(samples, 2000).state).toBe('working');
  });

  it('calls a thread that neither ran nor woke for the deadline "hung", and says when it is stopped', () => {
    const samples = [at(0, 100, 7), at(500, 150, 8), at(1000, 150, 8, 'T'), at(2600, 150, 8, 'T')];
    expect(progressVerdict(samples, 1500)).toEqual({ state: 'hung', idleMs: 2100, stopped: true });
    expect(progressVerdict(samples, 2500)).toEqual({ state: 'working' });
  });

  it('knows nothing without /proc', () => {
    expect(progressVerdict([{ atMs: 0, progress: undefined }], 1000)).toEqual({ state: 'unknown' });
    expect(progressVerdict([], 1000)).toEqual({ state: 'unknown' });
  });
});

describe('drainDeadlineMs', () => {
  it('is the backlog at the served rate, with half again and a second of slack', () => {
    // 10 bcrypt hashes at 15 req/s: 0.67 s of work.
    expect(drainDeadlineMs(10, 15, 15_000)).toBeCloseTo(2_000, 6);
    // 1,000 requests queued on a 20 ms blocking handler (50 req/s): 20 s of work, past a 15 s cap.
    expect(drainDeadlineMs(1000, 50, 15_000)).toBe(31_000);
  });

  it('is short with nothing in hand, and the cap when the load served nothing to judge the rate by', () => {
    expect(drainDeadlineMs(0, 0, 15_000)).toBe(1_000);
    expect(drainDeadlineMs(0, 0, 500)).toBe(500);
    expect(drainDeadlineMs(5, 0, 15_000)).toBe(15_000);
  });
});
