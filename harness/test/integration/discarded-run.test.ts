// Issue 22: the discarded run of the measured shape between the warm-up and round 1, with a real
// Node server and real autocannon: where it falls in the schedule, and that its figure stays out
// of every figure of the cell.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench, type BenchOutcome } from '../../src/run/bench.ts';
import { parsePlan } from '../../src/run/plan.ts';
import type { Progress } from '../../src/run/progress.ts';
import type { Report } from '../../src/report/report-types.ts';
import { roundFigure } from '../../src/report/stats.ts';

let tmp: string;
let outcome: BenchOutcome;
const phases: string[] = [];
const progress: Progress = { update: (s) => phases.push(`${s.mode} ${s.phase}`), log: () => {}, done: () => {} };

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-discarded-'));
  const data = ['--data-dir', join(tmp, 'data'), '--file-count', '2', '--file-size', '1024'];
  const plan = parsePlan(['--runtimes', 'node', '--scenarios', 'hello', '--runs', '2', '--duration', '0.3', '--warmup', '0.1', '--cross-check', 'none', '--discarded-run', 'hello', '--discarded-runs', '2', ...data, '--out', join(tmp, 'out')]);
  outcome = await runBench(plan, { progress });
}, 60_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the discarded run (issue 22)', () => {
  it('comes after every cell of the group is warmed up and before round 1, as many rounds of it as asked, in the ABBA order', () => {
    const runs = phases.filter((p) => / run /.test(p) || p.endsWith('warm-up'));
    expect(runs).toEqual([
      'baseline warm-up',
      'raw warm-up',
      // the discarded rounds go on ABBA backwards: the last one reversed, as round 2 will be
      'baseline run 0 (discarded)',
      'raw run 0 (discarded)',
      'raw run 0 (discarded)',
      'baseline run 0 (discarded)',
      'baseline run 1/2',
      'raw run 1/2',
      'raw run 2/2',
      'baseline run 2/2',
    ]);
  });

  it('is recorded on the cell and in the parameters, and counted in no figure of the cell', () => {
    const saved = JSON.parse(readFileSync(join(outcome.runDir, 'report.json'), 'utf8')) as Report;
    expect(saved.parameters).toMatchObject({ discardedRun: ['hello'], discardedRunCount: 2 });
    expect(saved.results.map((c) => c.mode)).toEqual(['baseline', 'raw']);
    for (const cell of saved.results) {
      expect(cell.status).toBe('ok');
      const discarded = cell.discardedRuns ?? [];
      expect(discarded.map((r) => r.round)).toEqual([0, 0]);
      for (const run of discarded) expect(run.requestsPerSec).toBeGreaterThan(0);
      // the measured runs are rounds 1 and 2 only, and the cell's figures are theirs alone
      expect(cell.runDetails.map((r) => r.round)).toEqual([1, 2]);
      expect(cell.requestsPerSec.runs).toEqual(cell.runDetails.map((r) => roundFigure(r.requestsPerSec)));
    }
  });
});
