import { describe, expect, it } from 'vitest';
import { compareReports } from '../src/compare/compare.ts';
import type { ReportComparison } from '../src/compare/compare.ts';
import { formatChange, formatP, renderComparisonMarkdown, verdictLine } from '../src/compare/render-compare.ts';
import { environment, makeReport, parameters } from './fixtures.ts';
import { cellOf, FIB_WORKER, HASH_ASYNC, HASH_SYNC, HELLO_RAW } from './fixtures/compare/reports.ts';

/** One regression (hash sync), one improvement (hash async), one untestable, one invalid, one cell each side only. */
function sampleComparison(): ReportComparison {
  const baseline = makeReport([
    cellOf(HASH_SYNC, [1000, 1010, 990]),
    cellOf(HASH_ASYNC, [2000, 2010, 1990], [100, 102, 98]),
    cellOf({ runtime: 'node', scenario: 'fib', mode: 'sync' }, [300]),
    cellOf({ runtime: 'node', scenario: 'sleep', mode: 'sync' }, [48, 48, 48]),
    cellOf(FIB_WORKER, [700, 700, 700]),
  ]);
  const current = makeReport(
    [
      cellOf(HASH_SYNC, [800, 810, 790], undefined, { flags: ['client-bound'] }),
      cellOf(HASH_ASYNC, [2400, 2410, 2390], [50, 51, 49]),
      cellOf({ runtime: 'node', scenario: 'fib', mode: 'sync' }, [150]),
      cellOf({ runtime: 'node', scenario: 'sleep', mode: 'sync' }, [0, 0, 0], undefined, {
        status: 'failed',
        reason: 'server exited | code 1',
      }),
      cellOf(HELLO_RAW, [9000, 9000, 9000]),
    ],
    {
      createdAt: '2025-02-03T04:05:06.000Z',
      parameters: { ...parameters, connections: 50 },
      environment: { ...environment, kernel: '6.9.0', commit: 'fedcba9876543210' },
      runtimes: [{ name: 'node', version: '22.1.0', status: 'ok' }],
    },
  );
  return compareReports(baseline, current, { threshold: 0.05 });
}

/** The table row of one runtime/scenario/mode. */
function rowOf(markdown: string, runtime: string, scenario: string, mode: string): string {
  const row = markdown.split('\n').find((line) => new RegExp(`^\\| ${runtime} +\\| ${scenario} +\\| ${mode} +\\|`).test(line));
  if (row === undefined) throw new Error(`no row for ${runtime} ${scenario} ${mode}`);
  return row;
}

describe('formatters', () => {
  it('shows changes as signed percentages', () => {
    expect(formatChange(-0.2)).toBe('-20.0 %');
    expect(formatChange(0.0523)).toBe('+5.2 %');
    expect(formatChange(0.0001)).toBe('0.0 %');
    expect(formatChange(null)).toBe('n/a');
  });

  it('shows p-values with 2 significant digits, tiny ones as <0.001', () => {
    expect(formatP(0.04567)).toBe('0.046');
    expect(formatP(1)).toBe('1');
    expect(formatP(0.00001)).toBe('<0.001');
    expect(formatP(null)).toBe('—');
  });
});

describe('renderComparisonMarkdown', () => {
  const comparison = sampleComparison();
  const markdown = renderComparisonMarkdown(comparison);

  it('opens with a one-line verdict that counts every kind of cell', () => {
    expect(verdictLine(comparison)).toBe(
      '**✗ 1 regression, 1 improvement, 0 no change, 1 could not tell (not testable), 1 not compared, 1 only in current, 1 only in baseline**, margins ±5 % (hello ±10 %, p99 ±20 %) with 95 % confidence, allowing ±11.7 % between sessions (assumed: neither report measured its host), p < 0.05',
    );
    expect(markdown.split('\n')[2]).toBe(verdictLine(comparison));
  });

  it('names both commits and dates in the header', () => {
    expect(markdown).toContain('Baseline `0123456789`, dirty (2025-01-02 03:04 UTC) → current `fedcba9876`, dirty (2025-02-03 04:05 UTC)');
  });

  it('warns about differing parameters, runtime versions and environment, with both values', () => {
    const warnings = markdown.split('## Warnings\n\n')[1]?.split('\n\n')[0] ?? '';
    expect(warnings).toContain('connections `100` → `50`');
    expect(warnings).toContain('node `20.20.2` → `22.1.0`');
    expect(warnings).toContain('bun `1.2.3` → not in report');
    expect(warnings).toContain('kernel `6.8.0-45-generic` → `6.9.0`');
    // The commit is the point of comparing: in the header, not a warning.
    expect(warnings).not.toContain('commit');
  });

  it('shows a regression with both figures, the change in bold, p and the verdict', () => {
    const row = rowOf(markdown, 'node', 'hash', 'sync');
    expect(row).toMatch(/\| +1,000 → 800 \| \*\*-20\.0 % \(-28\.9 % to -10\.0 %\)\*\* \| <0\.001 \|/);
    expect(row).toMatch(/\| 12\.0 → 12\.0 \| +0\.0 % \(-10\.5 % to \+11\.7 %\) \| +1 \|/);
    expect(row).toContain('✗ regressed (req/s) ⚠ client-bound (current)');
  });

  it('shows an improvement on both metrics', () => {
    const row = rowOf(markdown, 'node', 'hash', 'async');
    expect(row).toContain('+20.0 %');
    expect(row).toContain('100 → 50.0');
    expect(row).toContain('-50.0 %');
    expect(row).toContain('✓ improved (req/s, p99)');
  });

  it('says why a cell was not tested or not compared', () => {
    expect(rowOf(markdown, 'node', 'fib', 'sync')).toContain('? could not tell: 1 vs 1 runs, too few to test');
    const failed = rowOf(markdown, 'node', 'sleep', 'sync');
    expect(failed).toContain('— not compared: current failed: server exited \\| code 1');
    expect(failed).not.toContain('48');
  });

  it('lists the cells in only one report', () => {
    const section = markdown.split('## Cells in only one report\n\n')[1] ?? '';
    expect(section).toContain('- only in baseline (1): bun fib worker');
    expect(section).toContain('- only in current (1): bun hello raw');
  });

  it("explains the test: Welch's t-test, and why not Mann-Whitney", () => {
    expect(markdown).toContain("Welch's t-test");
    expect(markdown).toContain('its smallest two-sided p is 0.1');
  });

  it('has no warnings section, and says what it could not see, when nothing differs between two sessions', () => {
    const report = makeReport([cellOf(HASH_SYNC, [1000, 1010, 990])]);
    const clean = renderComparisonMarkdown(compareReports(report, report, { threshold: 0.05 }));
    expect(clean).not.toContain('## Warnings');
    expect(clean).not.toContain('## Cells in only one report');
    // Two sessions apart: ±11.7 % allowed between them, so a 5 % change could not have been seen.
    expect(clean).not.toContain('✓ 0 regressions');
    expect(clean).toMatch(
      /\*\*\? could not tell: no change beyond 1\d\.\d % found, and two separate sessions cannot see less; use bench:ab \(A and B alternating in one session\) to see ±5 %\*\* \(0 regressions, 0 improvements, 0 no change, 1 could not tell \(could not see ±5 %\)\)/,
    );
    // and the cell's row says the same, not "= no change"
    expect(clean).toMatch(/\| \? could not tell: no change beyond 1\d\.\d % \(req\/s\), the smallest it could see \|/);
    expect(clean).not.toContain('= no change');
  });

  it('gives no ✓ when no cell could be judged', () => {
    const once = makeReport([cellOf(HASH_SYNC, [1000])]);
    const none = compareReports(once, once, { threshold: 0.05 });
    expect(none.counts).toMatchObject({ regressed: 0, unchanged: 0, notTestable: 1 });
    expect(verdictLine(none)).toMatch(/^\*\*\? 0 regressions, 0 improvements, 0 no change, 1 could not tell \(not testable\)\*\*/);
  });

  it("takes the session allowance from the reports' reference loops, and gives a clean verdict only when it could see its margin", () => {
    const steady = { unit: 'fib(28)', minMs: 3.6, maxMs: 3.64, medianMs: 3.62, rounds: 12 };
    const base = makeReport([cellOf(HASH_SYNC, [1000, 1004, 996, 1000])]);
    const report = { ...base, environment: { ...base.environment, referenceLoop: steady } };
    const moved = { ...base, environment: { ...base.environment, referenceLoop: { ...steady, medianMs: 3.98, maxMs: 4 } } };
    const same = compareReports(report, report, { threshold: 0.05 });
    expect(same.session?.source).toBe("from the reports' reference loops");
    expect(same.session?.allowance).toBeLessThan(0.01);
    expect(verdictLine(same)).toMatch(
      /^\*\*✓ 0 regressions, 0 improvements, 1 no change\*\*, .* allowing ±0\.\d+ % between sessions \(from the reports' reference loops\)/,
    );
    // The host ran 10 % slower in the second session: two sessions can then differ by as much.
    const apart = compareReports(report, moved, { threshold: 0.05 });
    expect(apart.session?.allowance).toBeCloseTo(0.0994, 3);
    expect(verdictLine(apart)).toMatch(/^\*\*\? could not tell: no change beyond/);
  });
});
