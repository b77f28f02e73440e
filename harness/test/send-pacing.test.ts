// How the generator waits for its next send (send-pacing.ts): the worker's wake-up only for long
// gaps, short naps on the main thread (never longer than NAP_MS, so answers are read on time), and
// plain event-loop turns for the last microseconds.
import { describe, expect, it } from 'vitest';
import { MIN_NAP_MS, NAP_MS, pace, WAKE_EARLY_MS, WAKE_GAP_MS } from '../src/curve/send-pacing.ts';

describe('pace', () => {
  it('hands gaps over WAKE_GAP_MS to the worker, woken WAKE_EARLY_MS before the due time', () => {
    expect(pace(1000 + WAKE_GAP_MS + 0.5, 1000)).toEqual({ kind: 'wake', atMs: 1000 + WAKE_GAP_MS + 0.5 - WAKE_EARLY_MS });
    expect(pace(1250, 1000)).toEqual({ kind: 'wake', atMs: 1250 - WAKE_EARLY_MS });
  });

  it('naps through shorter gaps in slices of at most NAP_MS', () => {
    expect(pace(1000 + WAKE_GAP_MS, 1000)).toEqual({ kind: 'nap', ms: NAP_MS });
    expect(pace(1000.5, 1000)).toEqual({ kind: 'nap', ms: NAP_MS });
    const short = pace(1000 + NAP_MS / 2, 1000);
    expect(short.kind).toBe('nap');
    expect(short.kind === 'nap' && short.ms).toBeCloseTo(NAP_MS / 2, 9);
  });

  it('turns the event loop (no nap) when the send is all but due, or overdue', () => {
    expect(pace(1000 + MIN_NAP_MS / 2, 1000)).toEqual({ kind: 'turn' });
    expect(pace(1000, 1000)).toEqual({ kind: 'turn' });
    expect(pace(999, 1000)).toEqual({ kind: 'turn' });
  });

  it('never naps past the due time', () => {
    for (let gap = 0; gap <= 2 * WAKE_GAP_MS; gap += 0.0137) {
      const p = pace(1000 + gap, 1000);
      if (p.kind === 'nap') expect(p.ms).toBeLessThanOrEqual(gap + 1e-9);
      if (p.kind === 'wake') expect(p.atMs).toBeLessThan(1000 + gap);
    }
  });
});
