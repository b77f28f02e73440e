// What fresh memory costs on this host, in the environment of every report (issue 22): /file/*
// reads each 5 MB file into a new buffer, so its cells move with this cost between VM boots.
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/report/report-types.ts';
import { environmentRows } from '../src/report/render/markdown.ts';
import { firstTouchText } from '../src/report/render/precision.ts';
import { environment } from '../src/system/environment.ts';
import { measureFirstTouch } from '../src/system/first-touch.ts';

describe('first touch of fresh memory', () => {
  it('times fresh pages that the kernel really faulted in (Linux counts them), a few rounds, a median', () => {
    const t = measureFirstTouch(4, 3);
    expect(t).toBeDefined();
    if (t === undefined) return;
    expect(t).toMatchObject({ rounds: 3, mb: 4 });
    // Every 4 KB page was new: one fault each, or fewer where the kernel maps larger folios, never none.
    expect(t.faultsPerPage).toBeGreaterThan(0);
    expect(t.faultsPerPage).toBeLessThanOrEqual(1.05);
    expect(t.usPerPage).toBeGreaterThan(0);
    // The rate is the per-page time restated: 4096 bytes per usPerPage microseconds.
    expect(t.gbPerSec).toBeCloseTo(4096 / (t.usPerPage * 1000), 1);
  });

  it('is part of every environment, and the Markdown and HTML environment tables show it', () => {
    const env = environment();
    expect(env.memoryFirstTouch?.usPerPage).toBeGreaterThan(0);
    const rows = new Map(environmentRows({ environment: env, runtimes: [] } as unknown as Report));
    expect(rows.get('fresh memory')).toBe(firstTouchText(env.memoryFirstTouch!));
    expect(firstTouchText({ usPerPage: 11.9, gbPerSec: 0.34, faultsPerPage: 1, rounds: 3, mb: 8 })).toBe(
      '11.9 µs per 4 KB page on first touch (0.34 GB/s; 1.00 page faults a page; median of 3 × 8 MB)',
    );
    // Reports from before it was measured have no row, not an empty one.
    const { memoryFirstTouch: _, ...older } = env;
    expect(new Map(environmentRows({ environment: older, runtimes: [] } as unknown as Report)).has('fresh memory')).toBe(false);
  });
});
