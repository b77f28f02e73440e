import { describe, expect, it } from 'vitest';
import { planSpecs } from '../src/bench/lanes.ts';
import { PRECISION, parsePlan } from '../src/bench/plan.ts';
import { CONSOLE_WIDTH } from '../src/report/render/console.ts';
import { cellLine, planLines } from '../src/report/text/progress-lines.ts';
import { makeCell } from './fixtures.ts';

/** The lines a bench run prints before its first cell, for the flags given, as bench-cli.ts builds them. */
function opening(argv: string[], more: string[] = []): string[] {
  const plan = parsePlan(argv);
  const labels = planSpecs(plan, () => {}).map((s) => s.label ?? s.name);
  return planLines(plan, labels, PRECISION.targetPrecision, more);
}

const columns = (line: string) => [...line].length;

describe('the plan a bench run states before its first cell', () => {
  it(`fits ${CONSOLE_WIDTH} columns in the default plan, and says what runs and how each cell is measured`, () => {
    const lines = opening([]);
    for (const line of lines) expect(columns(line), line).toBeLessThanOrEqual(CONSOLE_WIDTH);
    expect(lines).toEqual([
      'bench: node, bun, deno x 5 scenarios, 10 connections, runs interleaved, modes paired',
      'bench: each cell 4 runs of 1 s after 0.5 s warm-up, then more (up to 12) until within ±5 % in a 210 s budget',
    ]);
  });

  it(`fits ${CONSOLE_WIDTH} columns in a --quick plan, which says before anything runs that it is a smoke test`, () => {
    const lines = opening(['--quick']);
    for (const line of lines) expect(columns(line), line).toBeLessThanOrEqual(CONSOLE_WIDTH);
    expect(lines.join('\n')).toMatch(/--quick is a smoke test: 2 runs a cell, no 95 % interval/);
    expect(lines.join('\n')).toContain('not figures to quote (the default bench:all measures each cell to ±5 %)');
    // Nothing about adding runs: --quick has no precision target.
    expect(lines.join('\n')).not.toContain('until within');
  });

  it('wraps a line the plan cannot shorten (many lanes, a long warning) onto indented lines that fit', () => {
    const lanes = ['node@22', 'node@24', 'node@26', 'bun@1.2', 'bun@1.3', 'bun@1.4', 'deno@2.7', 'deno@2.8', 'deno@2.9'];
    const warning = `1000 connections need about 1256 open files, but the limit is 1024; raise it with \`ulimit -n 524288\`, or expect connection errors`;
    const plan = parsePlan(['--connections', '1,10,100,1000']);
    const lines = planLines(
      plan,
      lanes.map((l) => `${l.replace('@', ' ')}.99.99`),
      PRECISION.targetPrecision,
      [warning],
    );
    for (const line of lines) expect(columns(line), line).toBeLessThanOrEqual(CONSOLE_WIDTH);
    expect(lines.some((l) => l.startsWith('  '))).toBe(true);
    // Nothing is lost to the wrapping.
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(`bench: ${warning}`);
  });
});

describe("a finished cell's line", () => {
  it(`fits ${CONSOLE_WIDTH} columns even when a failed cell's reason is long`, () => {
    const failed = makeCell({
      runtime: 'bun',
      scenario: 'hash',
      mode: 'sync',
      status: 'failed',
      reason: 'about 10 requests in hand at the 1.0 req/s it served: more than the 15 s drain cap, even after a restart',
    });
    const lines = cellLine(failed, false).split('\n');
    expect(lines.length).toBe(2);
    for (const line of lines) expect(columns(line), line).toBeLessThanOrEqual(CONSOLE_WIDTH);
    expect(lines[0]).toMatch(/^bun hash\/sync: FAILED: about 10 requests/);
  });
});
