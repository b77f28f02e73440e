import { describe, expect, it } from 'vitest';
import { precisionLegend } from '../src/present/precision.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { makeReport, parameters } from './fixtures.ts';

describe('a run of 2 runs a cell (--quick) says its figures have no interval', () => {
  it('puts the line in the legend for 2 runs, and not for 3 or for a run with a precision target', () => {
    expect(precisionLegend({ ...parameters, runs: 2 }).join(' ')).toMatch(/^2 runs a cell: no 95 % interval/);
    expect(precisionLegend({ ...parameters, runs: 3 })).toEqual([]);
    expect(precisionLegend({ ...parameters, runs: 2, targetPrecision: 0.05, maxRuns: 12 }).join(' ')).not.toContain('no 95 % interval');
  });

  it('reaches the Markdown report', () => {
    expect(renderMarkdown(makeReport([], { parameters: { ...parameters, runs: 2 } }))).toContain('2 runs a cell: no 95 % interval');
  });
});
