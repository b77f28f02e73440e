// Hung and dead are failures, not overload: a server stopped with SIGSTOP mid-run fails its cell
// as hung, one killed fails it with its signal; on every runtime the next cell gets a new server
// and nothing is left behind. Mostly waiting on the hang deadline, so it runs beside another file.
// One run per fault for the three runtimes, each asserted on its own: a run's fixed part (the
// host check, the speed sampler's children) is paid twice instead of six times; --quick for its
// lighter host check, the flags after it setting the runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/bench/plan.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { interruptedReport } from '../../src/report/bench-files.ts';
import { cellOf, isAlive, processesMentioning, recordingProgress } from './helpers.ts';
import { type BenchOutcome, benchRun } from './bench-run.ts';

const RUNTIMES = ['node', 'bun', 'deno'] as const;
let tmp: string;
const dataFlags = () => ['--data-dir', join(tmp, 'data'), '--file-count', '2', '--file-size', '4096'];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-hung-dead-'));
});
afterEach(() => stopAllServers());
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Each runtime's servers as they started a measured run, in order. */
type Started = Record<string, number[]>;
const byRuntime = (): Started => Object.fromEntries(RUNTIMES.map((r) => [r, []]));

// Started by the first test that needs it, read by the three.
let killed: Promise<BenchOutcome & { pids: Started }> | undefined;
const killRun = () => {
  killed ??= (async () => {
    const plan = parsePlan([
      ...['--runtimes', RUNTIMES.join(','), '--scenarios', 'sleep', '--quick', '--runs', '1', '--duration', '0.5', '--warmup', '0'],
      ...['--timeout', '1'],
      ...['--cross-check', 'none', '--out', join(tmp, 'out-kill'), ...dataFlags()],
    ]);
    const pids = byRuntime();
    const outcome = await benchRun(plan, {
      progress: recordingProgress(),
      onRunStarted: (server, cell) => {
        pids[server.runtime]?.push(server.pid);
        if (cell.mode === 'sync') setTimeout(() => process.kill(server.pid, 'SIGKILL'), 200);
      },
    });
    return { ...outcome, pids };
  })();
  return killed;
};

let stoppedRun: Promise<BenchOutcome & { stopped: Started; hungForMs: Record<string, number> }> | undefined;
const stopRun = () => {
  stoppedRun ??= (async () => {
    // --min-requests 0: a stopped server answers nothing more, so the run would otherwise be
    // stretched to its 3 s cap looking for requests before the hang is even looked for.
    const plan = parsePlan([
      ...['--runtimes', RUNTIMES.join(','), '--scenarios', 'sleep', '--quick', '--runs', '1', '--duration', '0.5', '--warmup', '0'],
      ...['--timeout', '1'],
      '--min-requests',
      '0',
      ...['--cross-check', 'none', '--out', join(tmp, 'out-stop'), ...dataFlags()],
    ]);
    const stopped = byRuntime();
    // From each stop to the stopped server gone: found hung, ended, and its lane moving on.
    const hungForMs: Record<string, number> = {};
    const watches: NodeJS.Timeout[] = [];
    try {
      const outcome = await benchRun(plan, {
        progress: recordingProgress(),
        onRunStarted: (server, cell) => {
          if (cell.mode !== 'sync') return;
          stopped[server.runtime]?.push(server.pid);
          setTimeout(() => {
            process.kill(server.pid, 'SIGSTOP');
            const at = Date.now();
            const watch = setInterval(() => {
              if (isAlive(server.pid)) return;
              hungForMs[server.runtime] = Date.now() - at;
              clearInterval(watch);
            }, 100);
            watches.push(watch);
          }, 200);
        },
      });
      return { ...outcome, stopped, hungForMs };
    } finally {
      for (const watch of watches) clearInterval(watch);
    }
  })();
  return stoppedRun;
};

describe('hung and dead are not overloaded', () => {
  it.each(RUNTIMES)(
    '%s: a server killed mid-run fails with its signal, and the next cell gets a new one',
    async (runtime) => {
      const { report, runDir, pids } = await killRun();
      const sync = cellOf(report, runtime, 'sleep', 'sync');
      expect(sync.status).toBe('failed');
      expect(sync.reason).toMatch(/server died (during the run|.*while waiting).*signal SIGKILL/);
      expect(cellOf(report, runtime, 'sleep', 'async').status).toBe('ok');
      expect(new Set(pids[runtime]).size).toBe(2);
      // The cells on disk, as a forced stop would merge them: the finished ones, whatever failed.
      expect(interruptedReport(runDir)?.results.filter((c) => c.runtime === runtime)).toHaveLength(2);
      expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
    },
    120_000,
  );

  it.each(RUNTIMES)(
    '%s: a server stopped with SIGSTOP mid-run fails as hung, leaves no process, and the run goes on',
    async (runtime) => {
      const { report, stopped, hungForMs } = await stopRun();
      const sync = cellOf(report, runtime, 'sleep', 'sync');
      expect(sync.status).toBe('failed');
      expect(sync.reason).toMatch(/server hung: stopped \(process state T\)/);
      expect(cellOf(report, runtime, 'sleep', 'async').status).toBe('ok');
      expect(stopped[runtime]).toHaveLength(1);
      expect(isAlive(stopped[runtime]![0]!)).toBe(false);
      expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
      expect(hungForMs[runtime]).toBeLessThan(30_000);
    },
    120_000,
  );
});
