import { describe, expect, it } from 'vitest';
import { compareReports } from '../src/compare/compare.ts';
import { reproducedLine, reproducibility, whyNotReproduced } from '../src/compare/reproduced.ts';
import { renderComparisonMarkdown } from '../src/compare/render-compare.ts';
import { cellOf, FIB_WORKER, HASH_ASYNC, HASH_SYNC, HELLO_RAW } from './fixtures/compare/reports.ts';
import { makeReport } from './fixtures.ts';

// summarize([98, 100, 102]): median 100, 95 % interval 95.03 to 104.97 (t = 4.303, sd 2).
const STEADY = [98, 100, 102];

describe('whyNotReproduced', () => {
  it('passes a cell whose medians are within their combined interval', () => {
    expect(whyNotReproduced(cellOf(HASH_SYNC, STEADY), cellOf(HASH_SYNC, [101, 103, 105]))).toBeUndefined();
    // +6 %: outside the baseline's ±5 % interval, inside the combined ±7 %.
    expect(whyNotReproduced(cellOf(HASH_SYNC, STEADY), cellOf(HASH_SYNC, [104, 106, 108]))).toBeUndefined();
  });

  it('fails a cell whose medians are further apart than the combined interval, and says by how much', () => {
    const why = whyNotReproduced(cellOf(HASH_SYNC, STEADY), cellOf(HASH_SYNC, [108, 110, 112]));
    expect(why).toBe('+10.0 % apart, beyond ±7.0 % (combined 95 % interval, at least 3 %)');
  });

  it('says why there is nothing to test: a failed side, or too few runs for an interval', () => {
    expect(whyNotReproduced(cellOf(HASH_SYNC, STEADY), cellOf(HASH_SYNC, STEADY, undefined, { status: 'failed' }))).toBe(
      'not ok (current failed)',
    );
    expect(whyNotReproduced(cellOf(HASH_SYNC, [100, 101]), cellOf(HASH_SYNC, STEADY))).toMatch(/^no interval/);
  });
});

describe('reproducibility', () => {
  it('counts the cells that reproduce and lists the others; 9 of 10 is the 90 % asked', () => {
    const pairs = Array.from(
      { length: 10 },
      (_, i) => [cellOf(HASH_SYNC, STEADY), cellOf(HASH_SYNC, i === 0 ? [200, 201, 202] : STEADY)] as const,
    );
    const r = reproducibility(pairs);
    expect(r).toMatchObject({ reproduced: 9, of: 10, holds: true });
    expect(r.notReproduced).toHaveLength(1);
    expect(r.notReproduced[0]?.cell).toBe('node hash/sync');
    const eight = reproducibility(pairs.map((p, i) => (i === 1 ? ([p[0], cellOf(HASH_SYNC, [1, 2, 3])] as const) : p)));
    expect(eight).toMatchObject({ reproduced: 8, of: 10, holds: false });
    expect(reproducedLine(eight)).toMatch(/^cells reproduced: 8 of 10 \(80 %; at least 90 % asked, not met\)/);
  });

  it('holds for no cell at all is false, not vacuously true', () => {
    expect(reproducibility([])).toMatchObject({ reproduced: 0, of: 0, holds: false });
  });
});

describe('compareReports with reproducibility', () => {
  it('matches cells by key, counts only cells in both reports, and renders the list in Markdown', () => {
    const baseline = makeReport([cellOf(HASH_SYNC, STEADY), cellOf(HASH_ASYNC, STEADY), cellOf(FIB_WORKER, STEADY)]);
    const current = makeReport([cellOf(HASH_ASYNC, [150, 151, 152]), cellOf(HASH_SYNC, [99, 100, 101]), cellOf(HELLO_RAW, STEADY)]);
    const comparison = compareReports(baseline, current, { threshold: 0.05 });
    expect(comparison.reproducibility).toMatchObject({ reproduced: 1, of: 2, holds: false });
    expect(comparison.reproducibility?.notReproduced.map((c) => c.cell)).toEqual(['node hash/async']);
    const markdown = renderComparisonMarkdown(comparison);
    expect(markdown).toContain('## Reproducibility');
    expect(markdown).toContain('cells reproduced: 1 of 2');
    expect(markdown).toContain('- node hash/async: +51.0 % apart');
  });
});
