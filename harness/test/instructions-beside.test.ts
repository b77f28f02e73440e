import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { joinedFromFolder, withCounts } from '../src/measure/both-measures.ts';
import { instructionFeatures, instructionsMarkdown } from '../src/measure/instruction-section.ts';
import type { InstructionReport } from '../src/measure/instruction-report.ts';
import { takeMeasureFlags } from '../src/measure/measure-flag.ts';
import { agreementText, CAVEAT, FLAG_FACTOR, sideBySide } from '../src/measure/side-by-side.ts';
import type { AbCell } from '../src/model/ab.ts';
import type { InstructionCellRecord } from '../src/model/instructions.ts';
import type { Report } from '../src/model/report.ts';
import type { ReportSection } from '../src/model/section.ts';
import { environment, makeCell, makeReport } from './fixtures.ts';

/** A counted cell: `perRequest` instructions a request (the rounds agree). */
const counted = (scenario: string, mode: string, perRequest: number, lane = 'node'): InstructionCellRecord => ({
  lane,
  runtime: 'node',
  scenario,
  mode,
  status: 'ok',
  rounds: [perRequest, perRequest],
  perRequest,
  files: [],
  seconds: 10,
});

/** The report withCounts returns, without the features that render it. */
const countsIn = (...args: Parameters<typeof withCounts>): Report => withCounts(...args).report;

/** A wall-clock cell whose requests cost `ms` of CPU, all on the loop. */
const wall = (scenario: string, mode: string, ms: number, more: Parameters<typeof makeCell>[0] extends infer T ? Partial<T> : never = {}) =>
  makeCell({ runtime: 'node', scenario, mode: mode as 'sync', cpuPerRequestMs: { loopMs: ms, poolMs: 0, helperMs: 0 }, ...more });

describe('sideBySide', () => {
  // 2 instructions a CPU ns in every cell but file's, whose CPU time is 3x what its count explains.
  const results = [wall('json', 'sync', 8), wall('gzip', 'sync', 12), wall('kdf', 'sync', 35), wall('file', 'sync', 1)];
  const cells = [
    counted('json', 'sync', 16e6),
    counted('gzip', 'sync', 24e6),
    counted('kdf', 'sync', 70e6),
    counted('file', 'sync', 2e6 / 3),
  ];

  it('gives each counted cell its instructions a CPU ns, against the median of the cells', () => {
    const got = sideBySide(results, cells);
    expect(got?.beside.map((b) => [b.scenario, Number(b.instructionsPerCpuNs.toFixed(4))])).toEqual([
      ['json', 2],
      ['gzip', 2],
      ['kdf', 2],
      ['file', 0.6667],
    ]);
    expect(got?.agreement.medianPerCpuNs).toBeCloseTo(2, 6);
    expect(got?.agreement.maxOverMin).toBeCloseTo(3, 6);
    expect(got?.agreement.cells).toBe(4);
  });

  it('flags a cell further than the factor from the median, saying which way and why', () => {
    const got = sideBySide(results, cells);
    const file = got?.beside.find((b) => b.scenario === 'file');
    expect(file?.flagged).toBe(true);
    expect(file?.why).toMatch(/kernel time/);
    expect(got?.beside.filter((b) => b.flagged)).toHaveLength(1);
    expect(got?.agreement.flagged).toBe(1);
    // The spread without it: the three that agree.
    expect(got?.agreement.unflagged?.maxOverMin).toBeCloseTo(1, 9);
    expect(agreementText(got?.agreement ?? ({} as never))).toMatch(
      /; 1 cell further than 1\.5x from it \(⚑ below\); the other 3: 1\.00x from the lowest to the highest, sd 0 %\.$/,
    );
    // A cell 1.4x off stays unflagged at the default factor, and is flagged at a tighter one.
    const near = sideBySide([...results.slice(0, 3), wall('file', 'sync', 1)], [...cells.slice(0, 3), counted('file', 'sync', 2.8e6)]);
    expect(near?.agreement.flagged).toBe(0);
    expect(FLAG_FACTOR).toBeGreaterThan(1.4);
    expect(sideBySide(results, [...cells.slice(0, 3), counted('file', 'sync', 2.8e6)], 1.3)?.agreement.flagged).toBe(1);
  });

  it("names CPU on a sync cell's pool threads as work the count did not see", () => {
    const stray = wall('file', 'sync', 0, { cpuPerRequestMs: { loopMs: 0.4, poolMs: 0.6, helperMs: 0 } });
    const got = sideBySide([...results.slice(0, 3), stray], cells);
    const file = got?.beside.find((b) => b.scenario === 'file');
    expect(file?.cpuMsPerRequest).toBe(1);
    expect(file?.cpuByThreadMs).toEqual({ loopMs: 0.4, poolMs: 0.6, helperMs: 0 });
    expect(file?.why).toMatch(/^CPU time on pool threads, which a sync cell does not use/);
    // The same CPU in a worker cell is its work, not stray.
    const worker = sideBySide(
      [...results.slice(0, 3), { ...stray, mode: 'worker' }],
      [...cells.slice(0, 3), counted('file', 'worker', 2e6 / 3)],
    );
    expect(worker?.beside.find((b) => b.scenario === 'file')?.why).toMatch(/^more CPU time than the instructions account for/);
  });

  it('a steady rate has no spread; sd of log rates for a spread one', () => {
    const steady = sideBySide(results.slice(0, 3), cells.slice(0, 3));
    expect(steady?.agreement.sdLog).toBeCloseTo(0, 9);
    expect(steady?.agreement.maxOverMin).toBeCloseTo(1, 9);
    const spread = sideBySide(
      [wall('a', 'sync', 1), wall('b', 'sync', 1)],
      [counted('a', 'sync', 1e6), counted('b', 'sync', Math.E * 1e6)],
    );
    expect(agreementText(sideBySide(results.slice(0, 1), cells.slice(0, 1))?.agreement ?? ({} as never))).toBe(
      "One cell: 2.00 instructions a nanosecond of the server's CPU, no other to hold it against.",
    );
    // Two logs 1 apart: sample sd 1/sqrt(2).
    expect(spread?.agreement.sdLog).toBeCloseTo(Math.SQRT1_2, 9);
    expect(agreementText(spread?.agreement ?? ({} as never))).toMatch(
      /^Across 2 cells: 1\.86 instructions a nanosecond .* 2\.72x .* sd 71 %; 1 cell further than 1\.5x from it \(⚑ below\)\.$/,
    );
  });

  it('joins by lane, scenario and mode only, and leaves out what cannot carry a rate', () => {
    const got = sideBySide(
      [
        wall('json', 'sync', 8, { runtimeLabel: 'node-A' }),
        wall('json', 'sync', 4),
        wall('json', 'worker', 8, { status: 'failed' }),
        wall('json', 'async', 8, { cpuPerRequestMs: undefined }),
        wall('json', 'sync', 8, { query: 'size=1' }),
      ],
      [
        counted('json', 'sync', 16e6, 'node-A'),
        counted('json', 'worker', 16e6),
        counted('json', 'async', 16e6),
        { ...counted('gzip', 'sync', 1), status: 'failed', perRequest: undefined },
      ],
    );
    expect(got?.beside).toHaveLength(1);
    expect(got?.beside[0]).toMatchObject({ lane: 'node-A', cpuMsPerRequest: 8, instructionsPerRequest: 16e6 });
    expect(sideBySide([wall('json', 'sync', 8)], [counted('gzip', 'sync', 1e6)])).toBeUndefined();
  });

  it('one row per connection count of a swept wall-clock cell', () => {
    const got = sideBySide(
      [wall('json', 'sync', 8, { connections: 1 }), wall('json', 'sync', 4, { connections: 100 })],
      [counted('json', 'sync', 16e6)],
    );
    expect(got?.beside.map((b) => [b.connections, b.instructionsPerCpuNs])).toEqual([
      [1, 2],
      [100, 4],
    ]);
  });
});

describe('--measure wall,instructions', () => {
  it('reads a list of both measures in either order, or "both"', () => {
    for (const value of ['wall,instructions', 'instructions,wall', 'both'])
      expect(takeMeasureFlags(['--measure', value, '--count-requests', '5']).measure).toBe('both');
    expect(takeMeasureFlags(['--measure', 'wall,wall']).measure).toBe('wall');
    expect(() => takeMeasureFlags(['--measure', 'wall,cycles'])).toThrow(/unknown "cycles"/);
  });
});

const countReport = (cells: InstructionCellRecord[], more: Partial<InstructionReport> = {}): InstructionReport => ({
  kind: 'instructions',
  schemaVersion: 1,
  createdAt: '2026-11-29T11:00:00.000Z',
  status: 'complete',
  environment,
  valgrind: '3.19.0',
  count: { warmupRequests: 20, requests: 10, rounds: 3, concurrency: 1 },
  blindSpots: 'the full list',
  lanes: [{ lane: 'node', runtime: 'node', version: '26.12.1', status: 'ok', settings: '--single-threaded' }],
  cells: cells as InstructionReport['cells'],
  seconds: 120,
  ...more,
});

/** Markdown with its tables' padding taken out. */
const squeezed = (text: string | undefined): string => (text ?? '').replace(/ {2,}/g, ' ');

describe('report.json with the counts beside the wall clock', () => {
  const results = [wall('json', 'sync', 8), wall('gzip', 'sync', 12), wall('file', 'sync', 1)];
  const cells = [counted('json', 'sync', 16e6), counted('gzip', 'sync', 24e6), counted('file', 'sync', 6e5)];

  it('adds `instructions` with its settings, caveats and side-by-side rows, and changes nothing else', () => {
    const before = makeReport(results);
    const after = countsIn(before, countReport(cells), {});
    const { instructions, ...rest } = after;
    expect(rest).toEqual(before);
    expect(instructions).toMatchObject({
      valgrind: '3.19.0',
      blindSpots: 'the full list',
      count: { requests: 10 },
      agreement: { cells: 3 },
    });
    expect(instructions?.lanes[0]?.settings).toBe('--single-threaded');
    expect(instructions).not.toHaveProperty('kind');
    expect(instructions).not.toHaveProperty('environment');
    expect(instructions?.beside?.map((b) => b.scenario)).toEqual(['json', 'gzip', 'file']);
  });

  it("hands back the command's sections with the count's after them, to render the report it returns", () => {
    const own: ReportSection = { kind: 'ab', id: 'own', title: 'Own', headlines: [], markdown: () => 'own', html: () => 'own' };
    const { report, features } = withCounts(makeReport(results), countReport(cells), { sections: () => [own] });
    const sections = features.sections?.(report) ?? [];
    expect(sections.map((s) => s.id)).toEqual(['own', instructionFeatures.sections?.(report)[0]?.id]);
    expect(sections[1]?.markdown()).toMatch(/json\/sync/);
  });

  it('renders one table with the caveat once, the spread, and the flagged cell with its reason', () => {
    const text = squeezed(instructionsMarkdown(countsIn(makeReport(results), countReport(cells), {})));
    expect(text.split(CAVEAT)).toHaveLength(2);
    expect(text).toMatch(/\| node \| json\/sync \| 16,000,000 \| 8 ms \| 2\.00 \| 1\.00x \|/);
    expect(text).toMatch(/⚑ Below the median \(node file\/sync 0\.30x\): more CPU time .*kernel time/);
    expect(text).not.toMatch(/Above the median/);
    expect(text).toMatch(/Across 3 cells/);
    expect(text).toMatch(/Settings: node 26\.12\.1: --single-threaded/);
    // A failed count: its reason under the table, not in it.
    const failed = squeezed(
      instructionsMarkdown(
        countsIn(
          makeReport(results),
          countReport([...cells, { ...counted('kdf', 'sync', 1), status: 'failed', perRequest: undefined, reason: 'answered 504' }]),
          {},
        ),
      ),
    );
    expect(failed).toMatch(/\| node \| kdf\/sync \| failed \(below\) \| — \| — \| — \|/);
    expect(failed).toMatch(/^node kdf\/sync failed: answered 504$/m);
    // No wall-clock twin: the count's figure alone.
    const alone = squeezed(instructionsMarkdown(countsIn(makeReport([]), countReport(cells), {})));
    expect(alone).toMatch(/\| node \| json\/sync \| 16,000,000 \| — \| — \| — \|/);
    expect(alone).not.toMatch(/Across/);
    expect(instructionsMarkdown(makeReport(results))).toBeUndefined();
  });

  it('under bench:ab, one table of B over A by both measures where both were measured', () => {
    const abCell = (scenario: string, verdict: AbCell['verdict'], ratio?: number): AbCell =>
      ({ runtime: 'node', scenario, mode: 'sync', verdict, ...(ratio === undefined ? {} : { ratio }) }) as AbCell;
    const report = countsIn(
      makeReport([], {
        ab: {
          cells: [abCell('json', 'unchanged', 1.01), abCell('gzip', 'inconclusive')],
          counts: { regressed: 0, improved: 0, unchanged: 1, inconclusive: 1 },
        },
      }),
      countReport([], {
        sides: { a: 'file:a.ts', b: 'file:b.ts' },
        pairs: [
          {
            runtime: 'node',
            scenario: 'json',
            mode: 'sync',
            a: 'node-A',
            b: 'node-B',
            result: { verdict: 'regressed', ratio: 1.012, threshold: 0.003, why: '' },
          },
        ],
      }),
      {},
    );
    const text = squeezed(instructionsMarkdown(report));
    expect(text).toMatch(/A: file:a\.ts, B: file:b\.ts/);
    expect(text).toMatch(/\| node \| json\/sync \| 1\.010x \| no change \| 1\.0120x \| regressed \(could see ±0\.30 %\) \|/);
    expect(text).toMatch(/\| node \| gzip\/sync \| — \| could not tell \| — \| not counted \|/);
    expect(text.split(CAVEAT)).toHaveLength(2);
    expect(instructionFeatures.sections?.(report)[0]?.lead).toBe(true);
    expect(instructionFeatures.sections?.(report)[0]?.html()).toContain('could see ±0.30 %');
  });
});

describe('joinedFromFolder', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('joins the count written into a wall-clock run’s folder, once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'beside-'));
    dirs.push(dir);
    const report = makeReport([wall('json', 'sync', 8)]);
    expect(joinedFromFolder(report, dir)).toBeUndefined();
    writeFileSync(join(dir, 'instructions.json'), JSON.stringify(countReport([counted('json', 'sync', 16e6)])));
    const joined = joinedFromFolder(report, dir);
    expect(joined?.instructions?.beside?.[0]?.instructionsPerCpuNs).toBe(2);
    expect(joinedFromFolder(joined as Report, dir)).toBeUndefined();
  });
});
