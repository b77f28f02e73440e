import { describe, expect, it } from 'vitest';
import { mergeReport } from '../src/report/merge.ts';
import { CONSOLE_WIDTH, renderConsoleSummary } from '../src/report/render/console.ts';
import { formatMs, formatRatio, formatRps } from '../src/present/formats.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import type { Report } from '../src/model/report.ts';
import { environment, makeCell, parameters, runtimes } from './fixtures.ts';

function sampleReport(status: Report['status'] = 'complete'): Report {
  return mergeReport({
    createdAt: '2025-01-02T03:04:05.000Z',
    status,
    environment,
    parameters,
    runtimes,
    results: [
      makeCell({ runtime: 'node', scenario: 'hello', mode: 'baseline' }, { rps: 40_000, p99: 6, probeP99: 3 }),
      makeCell({ runtime: 'node', scenario: 'hello', mode: 'raw' }, { rps: 50_000, p99: 5, probeP99: 2 }),
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync' }, { rps: 1000, p99: 200, probeP99: 180 }),
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'async', flags: ['client-bound'] }, { rps: 2410, p99: 104, probeP99: 9 }),
      makeCell({ runtime: 'bun', scenario: 'hash', mode: 'sync', status: 'invalid', reason: '3 errors over 3 runs' }, { rps: 900 }),
      makeCell({ runtime: 'bun', scenario: 'hash', mode: 'async', status: 'failed', reason: 'server exited with code 1' }, { rps: 0 }),
      makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' }, { rps: 100, p99: 400, probeP99: 400 }),
      makeCell({ runtime: 'node', scenario: 'fib', mode: 'worker' }, { rps: 300, p99: 100, probeP99: 4 }),
    ],
  });
}

/** The lines of the table under the heading of one scenario. */
function tableOf(markdown: string, scenario: string): string[] {
  const section = markdown.split(`## ${scenario}\n\n`)[1] ?? '';
  return section.split('\n\n')[0]?.split('\n') ?? [];
}

describe('number formatting', () => {
  it('shows requests/s without decimals above 100', () => {
    expect(formatRps(12345.678)).toBe('12,346');
    expect(formatRps(45.67)).toBe('45.7');
    expect(formatRps(4.567)).toBe('4.57');
    expect(formatRps(9.6, 1000)).toBe('10');
  });

  it('shows latencies with 1-2 significant decimals', () => {
    expect(formatMs(1234.5)).toBe('1235');
    expect(formatMs(56.78)).toBe('56.8');
    expect(formatMs(4.213)).toBe('4.21');
    expect(formatMs(0.04321)).toBe('0.043');
    expect(formatMs(0)).toBe('0');
  });

  it('never prints a sub-millisecond latency as 0: 143 µs reads 0.14 ms, 1 µs 0.0010 ms', () => {
    expect(formatMs(0.143)).toBe('0.14');
    expect(formatMs(0.001)).toBe('0.0010');
    for (const us of [1, 9, 50, 143, 499, 999]) expect(Number(formatMs(us / 1000)), `${us} µs`).toBeGreaterThan(0);
  });

  it('shows ratios with a trailing x', () => {
    expect(formatRatio(2.4137)).toBe('2.41x');
    expect(formatRatio(0.0123)).toBe('0.012x');
    expect(formatRatio(0.05)).toBe('0.05x');
    expect(formatRatio(null)).toBe('n/a');
  });
});

describe('a hello cell answered in 143 µs', () => {
  const fast = mergeReport({
    createdAt: '2025-01-02T03:04:05.000Z',
    status: 'complete',
    environment,
    parameters,
    runtimes,
    results: [
      makeCell(
        { runtime: 'node', scenario: 'hello', mode: 'baseline', eventLoopLagMs: { p99: 0.021, max: 0.4 } },
        { rps: 20_000, p99: 0.143, probeP99: 0.312 },
      ),
    ],
  });

  it('shows its p99, probe p99 and lag in ms to two significant digits, in the table and the console', () => {
    const row = tableOf(renderMarkdown(fast), 'hello').find((line) => line.startsWith('| baseline')) ?? '';
    const figures = row.split('|').map((s) => s.trim());
    expect(figures).toContain('0.14');
    expect(figures).toContain('0.31');
    expect(figures).toContain('0.021');
    expect(figures).not.toContain('0');
    expect(renderConsoleSummary(fast)).toContain('0.14');
  });
});

describe('renderMarkdown', () => {
  const markdown = renderMarkdown(sampleReport());

  it('starts with a title carrying the date and status', () => {
    expect(markdown.split('\n')[0]).toBe('# Sync vs async HTTP benchmark, 2025-01-02 03:04 UTC (complete)');
  });

  it('says clearly when the run was interrupted', () => {
    expect(renderMarkdown(sampleReport('interrupted'))).toContain('**⚠ Interrupted:**');
  });

  it('has one table per scenario, in scenario order', () => {
    const headings = markdown.split('\n').filter((line) => /^## (hello|hash|file|fib|sleep)$/.test(line));
    expect(headings).toEqual(['## hello', '## hash', '## fib']);
    for (const scenario of ['hello', 'hash', 'fib']) {
      expect(tableOf(markdown, scenario)[0]).toMatch(/^\| mode +\| runtime +\| +req\/s/);
    }
  });

  it('groups rows by mode with the runtimes next to each other', () => {
    const rows = tableOf(markdown, 'hash').slice(2);
    expect(
      rows.map((row) =>
        row
          .split('|')
          .slice(1, 3)
          .map((s) => s.trim())
          .join(' '),
      ),
    ).toEqual(['sync node', 'sync bun', 'async node', 'async bun']);
  });

  it("marks a flagged cell with its notes' numbers, and lists each kind once below the table with the cells it applies to", () => {
    const rows = tableOf(markdown, 'hash');
    const notes = markdown.split('## hash\n\n')[1]?.split('\n\n- ')[0] ?? '';
    const numberOf = (label: string) => notes.match(new RegExp(`^(\\d+)\\. ${label}`, 'm'))?.[1];
    const marks = (start: string) =>
      rows
        .find((row) => row.startsWith(start))
        ?.split('|')
        .at(-2)
        ?.trim();
    expect(notes).toMatch(/^\d+\. ✗ failed \([^)]*\): bun async \(server exited with code 1\)$/m);
    expect(notes).toMatch(/^\d+\. ✗ invalid \([^)]*\): bun sync \(3 errors over 3 runs\)$/m);
    expect(notes).toMatch(/^\d+\. ⚠ client-bound \([^)]*\): node async$/m);
    expect(marks('| async | node')).toBe(numberOf('⚠ client-bound'));
    expect(marks('| sync  | bun')).toBe(numberOf('✗ invalid'));
    expect(marks('| sync  | node')).toBe('');
    // The rows carry numbers, not words: each note is said once, under the table.
    for (const row of rows) expect(row).not.toMatch(/client-bound|invalid|failed/);
    expect(rows.find((row) => row.startsWith('| async | bun'))).not.toMatch(/\| 0 ±/);
    // A table with no note has no notes column.
    expect(tableOf(markdown, 'hello')[0]).not.toContain('notes');
  });

  it('shows the median with the CI half-width', () => {
    expect(tableOf(markdown, 'hash').find((row) => row.startsWith('| sync  | node'))).toContain('1,000 ± 10');
  });

  it('writes the comparison sentences under each scenario', () => {
    expect(markdown).toContain(
      '- node: async vs sync, requests/s: 2.41x (too few runs for an interval) (p99 0.52x, a bystander waits 20x less), read with care: async client-bound',
    );
    expect(markdown).toContain(
      '- node: worker vs sync, requests/s: 3.00x (too few runs for an interval) (p99 0.25x, a bystander waits 100x less)',
    );
    expect(markdown).toContain(
      '- node: Hono vs the raw server, requests/s: 0.80x (too few runs for an interval) (p99 1.20x, a bystander waits 1.5x longer)',
    );
    expect(markdown).toContain('- bun: async vs sync, requests/s: could not tell: the async server failed, sync gave invalid answers');
    // A mode the module does not have is not mentioned.
    expect(markdown).not.toContain('not measured)');
  });

  it('leads with the findings and ends with a legend of only the marks it uses', () => {
    expect(markdown.indexOf('## Findings')).toBeLessThan(markdown.indexOf('## hash'));
    const legend = markdown.slice(markdown.indexOf('## How to read'));
    expect(markdown.indexOf('## How to read')).toBeGreaterThan(markdown.indexOf('## hash'));
    // The sample has a client-bound cell and an invalid one, nothing overloaded or on a shared host.
    expect(legend).toContain('- ⚠ client-bound:');
    expect(legend).toContain('✗ invalid:');
    expect(legend).not.toContain('⚠ overloaded');
    expect(legend).not.toContain('⚠ shared host');
  });

  it('lists runtimes that were not measured, with the reason', () => {
    expect(markdown).toContain('- deno: skipped (deno not installed)');
  });

  it('describes the environment and the parameters', () => {
    expect(markdown).toContain('| CPU            | AMD EPYC 7763 × 4');
    expect(markdown).toContain('(dirty: uncommitted changes)');
    expect(markdown).toContain('autocannon 8.0.0');
    expect(markdown).toMatch(/\| bun +\| 1\.2\.3 +\|/);
    expect(markdown).toMatch(/\| connections +\| 100 +\|/);
  });
});

describe('renderConsoleSummary', () => {
  const text = renderConsoleSummary(sampleReport());
  it('leads with the findings, then one table', () => {
    expect(text).toContain('Benchmark 2025-01-02 03:04 UTC: complete');
    expect(text).toMatch(/node +│ hash +│ async +│ +2,410 │/);
    expect(text).toContain('- hash, async vs sync: faster on node 2.41x');
    expect(text.indexOf('- hash, async vs sync')).toBeLessThan(text.indexOf('│ runtime'));
    expect(text).toContain('Not measured: deno skipped: deno not installed');
  });

  it(`fits ${CONSOLE_WIDTH} columns, its notes below the table, each kind once with the cells it applies to`, () => {
    for (const line of text.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(CONSOLE_WIDTH);
    const notes = text.slice(text.indexOf('Notes:'));
    expect(notes).toMatch(/^\d\. ⚠ client-bound \([^)]*\): node hash async/m);
    // The table's rows carry the note's number, not its words.
    expect(text).not.toMatch(/│.*client-bound.*│/);
  });
});

describe('findings only from cells that can carry them', () => {
  const report = (cells: Parameters<typeof mergeReport>[0]['results']): Report =>
    mergeReport({ createdAt: '2026-11-22T16:00:00.000Z', status: 'complete', environment, parameters, runtimes, results: cells });

  it('says n/a and why, instead of a ratio, when a side is invalid', () => {
    const md = renderMarkdown(
      report([
        makeCell({ runtime: 'deno', scenario: 'hash', mode: 'sync' }, { rps: 16 }),
        makeCell(
          {
            runtime: 'deno',
            scenario: 'hash',
            mode: 'async',
            status: 'invalid',
            reason: '2 runs completed no request: lengthen --duration',
          },
          { rps: 1 },
        ),
      ]),
    );
    expect(md).toContain('deno: async vs sync, requests/s: could not tell: async gave invalid answers');
    expect(md).not.toMatch(/0\.06x/);
  });

  it('states overload as a result: the share that timed out per mode, and what was still served', () => {
    const overload = { sent: 2000, timeouts: 1920, errors: 0, timeoutShare: 0.96, errorShare: 0, timeoutSec: 10 };
    const md = renderMarkdown(
      report([
        makeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync', flags: ['overloaded'], overload }, { rps: 31 }),
        makeCell({ runtime: 'node', scenario: 'sleep', mode: 'async' }, { rps: 4700 }),
      ]),
    );
    expect(md).toMatch(/^\d+\. ⚠ overloaded \([^)]*\): node sync \(96 % of requests timed out after 10 s\)$/m);
    expect(md).toContain(
      'node at 100 connections, sync: 96 % of requests timed out after 10 s (served 31.0 req/s); async: none timed out, served 4,700 req/s',
    );
  });

  it("lists each cell's own figure under a small table even when every cell carries the kind", () => {
    const unstable = (runtime: 'node' | 'bun', cv: number) => {
      const cell = makeCell({ runtime, scenario: 'fib', mode: 'sync', flags: ['unstable'] });
      cell.requestsPerSec = { ...cell.requestsPerSec, cv };
      return cell;
    };
    const md = renderMarkdown(report([unstable('node', 0.23), unstable('bun', 0.12)]));
    expect(md).toMatch(/^1\. ⚠ unstable \([^)]*\): node sync \(CV 23 %\), bun sync \(CV 12 %\)$/m);
    expect(md).not.toContain('every cell');
  });

  it('says a kind every cell of a table carries once for the table, and marks no row with it', () => {
    const cold = (runtime: 'node' | 'bun', mode: 'sync' | 'async') =>
      makeCell({ runtime, scenario: 'file', mode, fileCache: 'cold' as const }, { rps: mode === 'sync' ? 100 : 150 });
    const md = renderMarkdown(report([cold('node', 'sync'), cold('node', 'async'), cold('bun', 'sync'), cold('bun', 'async')]));
    const section = md.slice(md.indexOf('## file'));
    expect(section.match(/Every cell: ❄ cold cache\./g)).toHaveLength(1);
    // No numbered note and no notes column: nothing tells one row from another.
    expect(section).not.toMatch(/^\d+\. ❄/m);
    expect(tableOf(md, 'file')[0]).not.toContain('notes');
    const text = renderConsoleSummary(report([cold('node', 'sync'), cold('node', 'async')]));
    expect(text).toContain('Every cell: ❄ cold cache.');
    expect(text).not.toMatch(/│ 1 +│/);
  });

  it('says a kind on all but a few cells once, naming the exceptions, as the run that shared the host with 32 of 33 cells', () => {
    const scenarios = ['hello', 'hash', 'file', 'fib', 'sleep'] as const;
    const cells = scenarios.flatMap((scenario) =>
      (['node', 'bun', 'deno'] as const).map((runtime) =>
        makeCell({
          runtime,
          scenario,
          mode: 'sync',
          ...(runtime === 'node' && scenario === 'hello'
            ? {}
            : { flags: ['shared-host' as const], sharedHost: 'others used 0.6 of a core' }),
        }),
      ),
    );
    const text = renderConsoleSummary(report(cells));
    expect(text).toContain('Every cell but node hello sync: ⚠ shared host (other processes used the CPU during runs).');
    expect(text).not.toMatch(/^\d+\. ⚠ shared host/m);
    // No row carries a mark for it.
    expect(text).not.toMatch(/│ 1 +│/);
  });

  it("gives wrk's figure only where autocannon fell short of it: at or above 0.9x of it the figure reads as measured", () => {
    const checked = (runtime: 'node' | 'bun', ratio: number) =>
      makeCell(
        {
          runtime,
          scenario: 'hello',
          mode: 'baseline',
          crossCheck: { tool: 'wrk', requestsPerSec: 20_000, connections: 10, threads: 1, ratio },
        },
        { rps: 20_000 * ratio },
      );
    const md = renderMarkdown(report([checked('node', 0.95), checked('bun', 0.5)]));
    expect(md).toMatch(/^1\. wrk cross-check \([^)]*\): bun baseline \(20,000 req\/s, autocannon 0\.50x of that\)$/m);
    expect(md).not.toMatch(/node baseline \(20,000 req\/s/);
  });

  it('prints no interval from two runs, and lag as n/a when the server could not report it', () => {
    const cell = makeCell(
      { runtime: 'bun', scenario: 'sleep', mode: 'sync', lagMissing: 'about 1000 requests in hand: more than the 15 s drain cap' },
      { rps: 49 },
    );
    cell.requestsPerSec = {
      median: 49,
      ci95: [49, 49],
      cv: 0.01,
      runs: [48.8, 49.2],
      intervalNote: '2 runs: too few for an interval (3 or more)',
    };
    const md = renderMarkdown(report([cell]));
    expect(md).toContain('49.0 (2 runs, no interval)');
    expect(md).toMatch(/\|\s+n\/a \|/);
    expect(md).toContain('lag n/a (backlog past the drain cap)');
  });
});
