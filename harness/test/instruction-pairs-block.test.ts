import { describe, expect, it } from 'vitest';
import { instructionPairsBlock, type PairRun } from '../src/docs/instruction-pairs-block.ts';
import { instructionVerdict } from '../src/measure/instruction-verdict.ts';

/** One bench:ab run's report: A and B cells of fib22 on one runtime, judged as bench:ab judges them. */
function run(
  runtime: 'node' | 'bun',
  a: number,
  b: number,
  extra: { wall?: number; busy?: number; cycles?: [number, number]; jitNamed?: number; warning?: string; seconds?: number } = {},
): PairRun {
  const cell = (lane: string, figure: number, cycles?: number) => ({
    lane,
    runtime,
    scenario: 'fib22',
    mode: 'sync',
    status: 'ok' as const,
    rounds: [figure * 1.1, figure],
    perRequest: figure,
    ...(cycles === undefined ? {} : { cycleRounds: [cycles, cycles], cyclesPerRequest: cycles }),
    ...(extra.jitNamed === undefined ? {} : { jitNamed: extra.jitNamed }),
    files: [],
    seconds: extra.seconds ?? 30,
  });
  const lane = (name: string) => ({
    lane: name,
    runtime,
    version: '1.0.0',
    status: 'ok' as const,
    settings: '',
    ...(extra.warning === undefined ? {} : { valgrindWarnings: [extra.warning] }),
  });
  return {
    kind: 'instructions',
    schemaVersion: 1,
    createdAt: '2026-11-29T10:00:00.000Z',
    status: 'complete',
    environment: { cpu: { model: 'CPU', count: 2 }, commit: 'abcdef0123' } as PairRun['environment'],
    valgrind: '3.19.0',
    count: { warmupRequests: 500, requests: 100, rounds: 2, concurrency: 1 },
    blindSpots: '',
    lanes: [lane(`${runtime}-A`), lane(`${runtime}-B`)],
    cells: [cell(`${runtime}-A`, a, extra.cycles?.[0]), cell(`${runtime}-B`, b, extra.cycles?.[1])],
    pairs: [
      {
        runtime,
        scenario: 'fib22',
        mode: 'sync',
        a: `${runtime}-A`,
        b: `${runtime}-B`,
        result: instructionVerdict(runtime, [a * 1.1, a], [b * 1.1, b]),
      },
    ],
    seconds: 100,
    ...(extra.wall === undefined ? {} : { plan: { wallSeconds: extra.wall, hostCpuBusy: extra.busy ?? 0.9 } }),
  };
}

describe('instructionPairsBlock', () => {
  it('counts quiet A/A runs and flagged +1 % runs per runtime, with the time per plan', () => {
    const text = instructionPairsBlock([
      { folder: 'node-aa-01', report: run('node', 1_000_000, 1_001_000, { wall: 100, busy: 0.9, jitNamed: 0.99995 }) },
      { folder: 'node-aa-02', report: run('node', 1_000_000, 1_010_000, { wall: 120, busy: 0.55 }) },
      { folder: 'node-inj-01', report: run('node', 1_000_000, 1_010_700, { wall: 140 }) },
      { folder: 'node-inj-02', report: run('node', 1_000_000, 1_001_000, { wall: 110 }) },
      { folder: 'notes', report: {} },
    ]);
    const row = text.split('\n').find((l) => l.startsWith('| node'));
    expect(row).toMatch(/\| +1 of 2 \|/);
    expect(row).toMatch(/\| +1 of 2 \|/);
    expect(row).toContain('+0.10 % to +1.00 %');
    expect(row).toContain('115 s (140 s)');
    expect(row).toContain('120 s (host 55 % busy)');
    expect(text).toContain('node over 99.99 % (median of 2 cells)');
    expect(text).not.toContain('cache simulation');
  });
  it('says whether estimated cycles were steadier than instructions over the cache-simulated A/A runs', () => {
    const text = instructionPairsBlock([
      {
        folder: 'bun-aacs-01',
        report: run('bun', 1_000_000, 1_020_000, { cycles: [2_000_000, 2_001_000], seconds: 60, warning: 'warning: L3 cache found' }),
      },
      { folder: 'bun-aacs-02', report: run('bun', 1_010_000, 990_000, { cycles: [2_002_000, 1_999_000], seconds: 60 }) },
      { folder: 'bun-aa-01', report: run('bun', 1_000_000, 1_000_000, { warning: 'WARNING: unhandled amd64-linux syscall: 441' }) },
    ]);
    expect(text).toContain('cycles per instruction');
    expect(text).toMatch(/\| bun +\| +4 \|.*\| +1\.99 \| +60 s \| +30 s \|/);
    expect(text).toContain('scattered less than instructions on bun, over as few as 4 processes a runtime: too few');
    expect(text).toContain('Valgrind on bun: WARNING: unhandled amd64-linux syscall: 441 (in 2 of 6 server processes');
    expect(text).not.toContain('L3');
  });
  it('says so when nothing is committed', () => {
    expect(instructionPairsBlock([])).toMatch(/No bench:ab instruction runs/);
  });
});

describe('instructionPairsBlock rows', () => {
  it('leaves a runtime counted only with the cache simulation out of the promise table', () => {
    const text = instructionPairsBlock([
      { folder: 'bun-aacs-01', report: run('bun', 1_000_000, 1_000_100, { cycles: [2_000_000, 2_000_100] }) },
      { folder: 'node-aa-01', report: run('node', 1_000_000, 1_000_100) },
    ]);
    const promise = text.split('With callgrind')[0] ?? '';
    expect(promise).toContain('| node 1.0.0');
    expect(promise).not.toContain('| bun');
  });
});
