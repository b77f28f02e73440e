// `bench:curve` end to end on every runtime: a curve per cell, the report written in its three
// forms, the capacity table printed, the generator warmed once per server. Asserts what the run
// wrote and decided (a step's outcome may be undecided), never a timing or a rate: it runs beside
// other files. The generator against queueing theory is curve.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import type { CurveReport } from '../../src/curve/curve-types.ts';
import { processesMentioning } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(import.meta.dirname, '../..');
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bench-curve-cli-'));
  generateDataFiles(dataDir, 2, 4096);
});

afterAll(() => {
  expect(processesMentioning(dataDir)).toEqual([]);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('bench:curve end to end', () => {
  it('every runtime: a curve per cell, report.json/md/html written, the capacity table printed; the generator warmed once per server', async () => {
    const out = mkdtempSync(join(tmpdir(), 'bench-curve-out-'));
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          ...HARNESS_NODE_ARGS,
          'src/curve-cli.ts',
          '--quick',
          '--scenarios',
          'sleep',
          '--rates',
          '20,40',
          // Half a second a step (10-20 requests): enough for every assertion below, which asks
          // for a decision or an undecided step, not for a capacity.
          '--max-step-sec',
          '0.5',
          '--out',
          out,
          '--data-dir',
          dataDir,
        ],
        { cwd: HARNESS, timeout: 90_000 },
      );
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as CurveReport;
      expect(report).toMatchObject({ kind: 'curve', status: 'complete', parameters: { arrivals: 'poisson', confidence: 0.8 } });
      expect(report.curves.map((c) => `${c.runtime} ${c.mode} ${c.status}`)).toEqual([
        'node sync ok',
        'node async ok',
        'bun sync ok',
        'bun async ok',
        'deno sync ok',
        'deno async ok',
      ]);
      // Each runtime's server: a discarded step before its first cell (at the first rate), none before the second.
      expect(report.curves.map((c) => c.warmupStep?.offeredPerSec ?? null)).toEqual([20, null, 20, null, 20, null]);
      for (const curve of report.curves.filter((c) => c.warmupStep !== undefined)) expect(curve.warmupStep?.sent).toBeGreaterThan(0);
      for (const curve of report.curves) {
        expect(curve.steps.map((s) => s.offeredPerSec)).toEqual([20, 40]);
        for (const s of curve.steps) {
          expect(s.completed).toBe(s.scheduled);
          expect(s.latencyMs.p50).toBeGreaterThanOrEqual(20);
          expect(s.eventLoopLagMs).toBeDefined();
          // Every step decided (or undecided at its 0.5 s cap: 10-20 requests cannot show p99 at 80 %).
          expect(s.decision).toMatchObject({ requests: s.scheduled, outcome: expect.stringMatching(/^(pass|fail|undecided)$/) });
        }
        expect(curve.capacity).toMatchObject({ end: 'rates', confidence: 0.8 });
      }
      expect(stdout).toContain('capacity req/s at p99 ≤ 100 ms (80 % confidence, poisson arrivals (seed 1))');
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('data-chart="curve"');
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## Capacity at p99 ≤ 100 ms, 80 % confidence, poisson arrivals');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 100_000);
});
