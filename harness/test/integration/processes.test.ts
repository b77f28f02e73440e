// --processes in a bench run on every runtime: a lost process fails the cell with nothing left
// behind, and the one result queueing theory fixes in advance: sleep/sync (one request at a time
// per process, no CPU) serves N times 1/sleep requests/s. A rate, so the file runs in the serial
// group; the group's serving, /stats and /reset and its stop, which compare no rate, are
// processes-group.test.ts (shared group).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { parsePlan } from '../../src/bench/plan.ts';
import type { Report } from '../../src/model/report.ts';
import { RUNTIME_NAMES } from '../../src/servers/runtimes.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { processesMentioning, recordingProgress } from './helpers.ts';
import { benchRun } from './bench-run.ts';

let tmp: string;
let dataDir: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-processes-'));
  dataDir = join(tmp, 'data');
  generateDataFiles(dataDir, 2, 4096);
});
afterAll(async () => {
  await stopAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * One bench run for the three runtimes, each with a 1- and a 2-process lane: the run's setup
 * (host check, speed sampler, input files) is paid once, not once a runtime. Every cell is still
 * measured alone (one server under load at a time), so each runtime's ratio is its own.
 */
describe('bench --processes 1,2 on every runtime', () => {
  const killed = new Map<string, number>();
  let report: Report;
  let leftovers: number[];

  beforeAll(async () => {
    const out = join(tmp, 'out');
    // --quick for its lighter host check: the flags after it set the runs.
    const plan = parsePlan([
      ...['--runtimes', RUNTIME_NAMES.join(','), '--scenarios', 'sleep', '--processes', '1,2', '--sleep-ms', '20'],
      ...['--quick', '--runs', '1', '--duration', '0.5', '--warmup', '0.2', '--warmup-max', '0.2', '--min-requests', '0'],
      ...['--cross-check', 'none', '--data-dir', dataDir, '--out', out],
    ]);
    ({ report } = await benchRun(plan, {
      progress: recordingProgress(),
      onRunStarted: (server, cell) => {
        // The async cell of each runtime's 2-process lane loses one serving process mid-run.
        if (cell.mode === 'async' && server.servingPids.length === 2 && !killed.has(server.runtime)) {
          const pid = server.servingPids[1]!;
          killed.set(server.runtime, pid);
          setTimeout(() => process.kill(pid, 'SIGKILL'), 200);
        }
      },
    }));
    await stopAllServers();
    leftovers = processesMentioning(dataDir);
  }, 120_000);

  it.each(RUNTIME_NAMES)(
    '%s sleep/sync: 2 processes serve about twice the requests/s of one; killing a serving process fails its cell',
    (name) => {
      const cell = (mode: string, processes: number) =>
        report.results.find((c) => c.runtime === name && c.mode === mode && c.processes === processes);
      const one = cell('sync', 1);
      const two = cell('sync', 2);
      expect(one?.status).toBe('ok');
      expect(two?.status).toBe('ok');
      // One request at a time per process, 20 ms each: 50 req/s per process.
      expect(one!.requestsPerSec.median).toBeGreaterThan(50 * 0.8);
      const ratio = two!.requestsPerSec.median / one!.requestsPerSec.median;
      expect(ratio).toBeGreaterThan(2 * 0.8);
      expect(ratio).toBeLessThan(2 * 1.2);
      // Total RSS of both serving processes and the supervisor, not one process's.
      expect(two!.server.rssMB).toBeGreaterThan(one!.server.rssMB * 1.5);

      expect(killed.get(name)).toBeDefined();
      const lost = cell('async', 2);
      expect(lost?.status).toBe('failed');
      expect(lost?.reason).toMatch(/server died|serving process|hung/);
      expect(cell('async', 1)?.status).toBe('ok');
    },
  );

  it('leaves nothing running after the run', () => {
    expect(leftovers).toEqual([]);
  });
});
