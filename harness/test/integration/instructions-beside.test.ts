// --measure wall,instructions end to end on Node, one cell: the wall-clock plan, then the same
// cell counted under callgrind into the same run folder; report.json keeps its wall-clock figures
// and gains the count beside them, and report.md says once what a count cannot see.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CAVEAT } from '../../src/measure/side-by-side.ts';
import { valgrindVersion } from '../../src/measure/valgrind.ts';
import type { Report } from '../../src/model/report.ts';
import { ended, isAlive, processesMentioning } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(import.meta.dirname, '../..');
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-beside-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

it.skipIf(valgrindVersion() === undefined)(
  'node, fib/sync: CPU time and instructions a request side by side in one report',
  { timeout: 180_000 },
  async () => {
    const out = join(tmp, 'run');
    // fib(20), not the default 28: a request of about 1 M instructions where 28's is 55 M, so the
    // 20 requests counted under Valgrind take a second there instead of eight; the two measures
    // still each see a request's work beside the other. One wall-clock run gives the CPU time a
    // request that goes beside the count.
    const plan = ['--runtimes', 'node', '--scenarios', 'fib', '--modes', 'sync', '--fib-n', '20', '--quick', '--runs', '1'];
    const args = [...plan, '--warmup', '0', '--out', out];
    const count = ['--measure', 'wall,instructions', '--count-warmup', '10', '--count-requests', '5', '--count-rounds', '2'];
    const child = spawn(process.execPath, [...HARNESS_NODE_ARGS, 'src/bench-cli.ts', ...args, ...count], {
      cwd: HARNESS,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await ended(child, 170_000), output).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    // The wall-clock cell as a plain run writes it, and the count beside it.
    expect(report.results.map((c) => `${c.scenario}/${c.mode}`)).toEqual(['fib/sync']);
    const beside = report.instructions?.beside?.[0];
    expect(beside?.cpuMsPerRequest).toBe(
      (report.results[0]?.cpuPerRequestMs?.loopMs ?? 0) +
        (report.results[0]?.cpuPerRequestMs?.poolMs ?? 0) +
        (report.results[0]?.cpuPerRequestMs?.helperMs ?? 0),
    );
    expect(beside?.instructionsPerRequest).toBe(report.instructions?.cells[0]?.perRequest);
    expect(beside?.instructionsPerCpuNs).toBeGreaterThan(0);
    expect(report.instructions?.lanes[0]?.settings).toContain('--single-threaded');
    expect(report.instructions?.blindSpots).toMatch(/kernel time/);
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('## Instructions per request, beside CPU time');
    expect(markdown.split(CAVEAT)).toHaveLength(2);
    expect(output).toContain('instructions a CPU ns');
    expect(processesMentioning(out).filter(isAlive)).toEqual([]);
  },
);
