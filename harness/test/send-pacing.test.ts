// How the generator waits for its next send (send-pacing.ts): the worker's wake-up only for long
// gaps, naps on the main thread (never longer than NAP_MS, so answers are read on time) for middle
// ones, event-loop turns for short ones - unless the generator has hardly slept of late, when
// short gaps are napped too (a real-time process on the CPU 95 % of a second is stopped).
import { describe, expect, it } from 'vitest';
import {
  AsleepShare,
  MIN_ASLEEP_SHARE,
  MIN_NAP_MS,
  NAP_MS,
  pace,
  SPIN_GAP_MS,
  WAKE_EARLY_MS,
  WAKE_GAP_MS,
} from '../src/load/send-pacing.ts';

describe('pace', () => {
  it('hands gaps over WAKE_GAP_MS to the worker, woken WAKE_EARLY_MS before the due time', () => {
    expect(pace(1000 + WAKE_GAP_MS + 0.5, 1000)).toEqual({ kind: 'wake', atMs: 1000 + WAKE_GAP_MS + 0.5 - WAKE_EARLY_MS });
    expect(pace(1250, 1000)).toEqual({ kind: 'wake', atMs: 1250 - WAKE_EARLY_MS });
  });

  it('naps through gaps between SPIN_GAP_MS and WAKE_GAP_MS in slices of at most NAP_MS', () => {
    expect(pace(1000 + WAKE_GAP_MS, 1000)).toEqual({ kind: 'nap', ms: NAP_MS });
    expect(pace(1000 + SPIN_GAP_MS + 0.01, 1000)).toEqual({ kind: 'nap', ms: NAP_MS });
  });

  it('turns the event loop through short gaps while the generator sleeps enough', () => {
    expect(pace(1000 + SPIN_GAP_MS / 2, 1000, 0.5)).toEqual({ kind: 'turn' });
    expect(pace(1000 + MIN_NAP_MS / 2, 1000)).toEqual({ kind: 'turn' });
    expect(pace(1000, 1000)).toEqual({ kind: 'turn' });
    expect(pace(999, 1000)).toEqual({ kind: 'turn' });
  });

  it('naps through short gaps too when it has slept less than MIN_ASLEEP_SHARE of late', () => {
    const p = pace(1000 + SPIN_GAP_MS / 2, 1000, MIN_ASLEEP_SHARE / 2);
    expect(p.kind).toBe('nap');
    expect(p.kind === 'nap' && p.ms).toBeCloseTo(Math.min(NAP_MS, SPIN_GAP_MS / 2), 9);
    // Not for an all-but-due send: a nap that short costs more than it sleeps.
    expect(pace(1000 + MIN_NAP_MS / 2, 1000, 0)).toEqual({ kind: 'turn' });
  });

  it('never naps past the due time', () => {
    for (const share of [0, 1]) {
      for (let gap = 0; gap <= 2 * WAKE_GAP_MS; gap += 0.0137) {
        const p = pace(1000 + gap, 1000, share);
        if (p.kind === 'nap') expect(p.ms).toBeLessThanOrEqual(gap + 1e-9);
        if (p.kind === 'wake') expect(p.atMs).toBeLessThan(1000 + gap);
      }
    }
  });
});

describe('AsleepShare', () => {
  it("is 1 until a window has passed, then the last full window's share of time asleep", () => {
    const a = new AsleepShare(20);
    a.tick(0);
    a.slept(2, 10);
    expect(a.share).toBe(1);
    a.slept(3, 25);
    expect(a.share).toBeCloseTo(5 / 25, 9);
    a.tick(30);
    expect(a.share).toBeCloseTo(5 / 25, 9);
    a.tick(46);
    expect(a.share).toBe(0);
  });
});
