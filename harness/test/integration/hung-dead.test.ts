// Hung and dead are failures, not overload: a server stopped with SIGSTOP mid-run fails its cell
// as hung, one killed fails it with its signal; on every runtime the next cell gets a new server
// and nothing is left behind. Mostly waiting on the hang deadline, so it runs beside another file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/bench/plan.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { interruptedReport } from '../../src/report/bench-files.ts';
import { cellOf, isAlive, processesMentioning, recordingProgress } from './helpers.ts';
import { benchRun } from './bench-run.ts';

const RUNTIMES = ['node', 'bun', 'deno'] as const;
let tmp: string;
const dataFlags = () => ['--data-dir', join(tmp, 'data'), '--file-count', '2', '--file-size', '4096'];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-hung-dead-'));
});
afterEach(() => stopAllServers());
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('hung and dead are not overloaded', () => {
  it.each(RUNTIMES)('%s: a server killed mid-run fails with its signal, and the next cell gets a new one', async (runtime) => {
    const plan = parsePlan([
      ...['--runtimes', runtime, '--scenarios', 'sleep', '--runs', '1', '--duration', '0.5', '--warmup', '0', '--timeout', '1'],
      ...['--cross-check', 'none', '--out', join(tmp, `out-kill-${runtime}`), ...dataFlags()],
    ]);
    const pids: number[] = [];
    const { report, runDir } = await benchRun(plan, {
      progress: recordingProgress(),
      onRunStarted: (server, cell) => {
        pids.push(server.pid);
        if (cell.mode === 'sync') setTimeout(() => process.kill(server.pid, 'SIGKILL'), 200);
      },
    });
    const sync = cellOf(report, runtime, 'sleep', 'sync');
    expect(sync.status).toBe('failed');
    expect(sync.reason).toMatch(/server died (during the run|.*while waiting).*signal SIGKILL/);
    expect(cellOf(report, runtime, 'sleep', 'async').status).toBe('ok');
    expect(new Set(pids).size).toBe(2);
    // The cells on disk, as a forced stop would merge them: the finished ones, whatever failed.
    expect(interruptedReport(runDir)?.results).toHaveLength(2);
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
  });

  it.each(RUNTIMES)('%s: a server stopped with SIGSTOP mid-run fails as hung, leaves no process, and the run goes on', async (runtime) => {
    // --min-requests 0: a stopped server answers nothing more, so the run would otherwise be
    // stretched to its 3 s cap looking for requests before the hang is even looked for.
    const plan = parsePlan([
      ...['--runtimes', runtime, '--scenarios', 'sleep', '--runs', '1', '--duration', '0.5', '--warmup', '0', '--timeout', '1'],
      '--min-requests',
      '0',
      ...['--cross-check', 'none', '--out', join(tmp, `out-stop-${runtime}`), ...dataFlags()],
    ]);
    const stopped: number[] = [];
    const started = Date.now();
    const { report } = await benchRun(plan, {
      progress: recordingProgress(),
      onRunStarted: (server, cell) => {
        if (cell.mode !== 'sync') return;
        stopped.push(server.pid);
        setTimeout(() => process.kill(server.pid, 'SIGSTOP'), 200);
      },
    });
    const sync = cellOf(report, runtime, 'sleep', 'sync');
    expect(sync.status).toBe('failed');
    expect(sync.reason).toMatch(/server hung: stopped \(process state T\)/);
    expect(cellOf(report, runtime, 'sleep', 'async').status).toBe('ok');
    expect(stopped).toHaveLength(1);
    expect(isAlive(stopped[0]!)).toBe(false);
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
