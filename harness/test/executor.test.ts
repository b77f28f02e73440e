// The scheduler's executor and its round policies driven by a fake server and a fake load: no
// process starts, no time passes; what is checked is the order of runs, when servers are
// replaced, when a cell has enough, and what an interruption or a lost server leaves.
import type { Health, ScenarioSettings } from '@bench/app';
import { describe, expect, it } from 'vitest';
import { abRounds, type LaneRuns } from '../src/ab/ab-rounds.ts';
import type { Lane, Role } from '../src/bench/lanes.ts';
import { ServerLost } from '../src/bench/measure.ts';
import { benchGroup, type CellMeasure, keepUnfinishedGroup, type ScheduleContext } from '../src/bench/schedule.ts';
import type { ScheduleSettings } from '../src/bench/settings.ts';
import { Interrupted } from '../src/cli/interrupt.ts';
import type { CellResult } from '../src/model/cell.ts';
import type { Probe } from '../src/load/probe.ts';
import type { WrkResult } from '../src/load/wrk.ts';
import type { CellSpec } from '../src/servers/scenarios.ts';

import type { RunningServer } from '../src/servers/server.ts';
import { makeRun } from './fixtures.ts';

const settings = (overrides: Partial<ScheduleSettings> = {}): ScheduleSettings => ({
  connections: 10,
  durationSec: 1,
  warmupSec: 0,
  warmupMaxSec: 1,
  minRequests: 1,
  probeRatePerSec: 1,
  timeoutSec: 1,
  drainCapSec: 1,
  hashCost: 4,
  runs: 3,
  maxRuns: 3,
  targetCv: undefined,
  crossCheck: [],
  ...overrides,
});

const cells: CellSpec[] = (['sync', 'async'] as const).map((mode) => ({
  scenario: 'hash',
  mode,
  server: 'hono',
  path: `/hash/${mode}`,
  route: `/hash/${mode}`,
}));

function lane(label: string, role?: Role): Lane {
  return {
    spec: { name: 'node', binary: '', args: () => [], versionArgs: [], parseVersion: (out) => out, label },
    entry: { name: 'node', version: '24.0.0', status: 'ok', label },
    servers: new Map(),
    startErrors: new Map(),
    ...(role === undefined ? {} : { role }),
  };
}

interface Measured {
  label: string;
  mode: string;
  round: number;
  pid: number;
}

/**
 * Servers that are objects and runs that return at once. `onRun` sees each run before it is
 * taken (to kill its server or interrupt it); `rps` sets each run's figure.
 */
function fakeWorld(
  options: { rps?: (run: Measured) => number; onRun?: (run: Measured, server: FakeServer) => void; refuse?: string } = {},
) {
  let nextPid = 100;
  const started: { label: string; pid: number }[] = [];
  const measured: Measured[] = [];
  const labels = new Map<number, string>();
  const startServer: ScheduleContext['startServer'] = async (lane) => {
    const label = lane.spec.label ?? lane.spec.name;
    if (label === options.refuse) throw new Error('exited with code 1');
    const server = fakeServer(nextPid++);
    labels.set(server.pid, label);
    started.push({ label, pid: server.pid });
    return server;
  };
  const measure: CellMeasure = {
    prepare: async () => ({}),
    run: async (cell, context, phase) => {
      const run: Measured = {
        label: labels.get(context.server.pid) ?? '',
        mode: cell.mode,
        round: Number(/^run (\d+)/.exec(phase)?.[1]),
        pid: context.server.pid,
      };
      options.onRun?.(run, context.server as FakeServer);
      measured.push(run);
      return makeRun({ requestsPerSec: options.rps?.(run) ?? 1000 });
    },
    crossCheck: async () => ({ requestsPerSec: 1000 }) as WrkResult,
  };
  return { started, measured, startServer, measure };
}

type FakeServer = RunningServer & { die(): void };

function fakeServer(pid: number): FakeServer {
  let alive = true;
  return {
    runtime: 'node',
    kind: 'hono',
    pid,
    servingPids: [pid],
    url: 'http://127.0.0.1:1',
    health: { runtime: 'node', version: '24.0.0', pid, server: 'hono' } as Health,
    exited: new Promise(() => {}),
    get alive() {
      return alive;
    },
    stderrTail: () => '',
    stop: async () => {
      alive = false;
      return { code: 0, signal: null };
    },
    die: () => {
      alive = false;
    },
  };
}

function context(
  world: ReturnType<typeof fakeWorld>,
  plan: ScheduleSettings,
  extra: Partial<ScheduleContext> & { signal?: AbortSignal; logs?: string[] } = {},
): ScheduleContext {
  const { signal, logs, ...rest } = extra;
  return {
    plan,
    setup: {
      probe: {} as Probe,
      settings: {} as ScenarioSettings,
      servers: { args: [] },
      signal: signal ?? new AbortController().signal,
      log: (line) => logs?.push(line),
    },
    onPhase: () => {},
    startServer: world.startServer,
    measure: world.measure,
    ...rest,
  };
}

const order = (runs: readonly Measured[], round: number): string[] =>
  runs.filter((r) => r.round === round).map((r) => `${r.label} ${r.mode}`);
const byName = (results: readonly CellResult[]) => new Map(results.map((r) => [`${r.runtimeLabel ?? r.runtime} ${r.mode}`, r] as const));

describe('plain alternation', () => {
  it('runs every lane and cell once a round, both orders reversed every other round (ABBA)', async () => {
    const world = fakeWorld();
    const results = await benchGroup(cells, [lane('A'), lane('B')], context(world, settings()));
    expect(order(world.measured, 1)).toEqual(['A sync', 'A async', 'B sync', 'B async']);
    expect(order(world.measured, 2)).toEqual(['B async', 'B sync', 'A async', 'A sync']);
    expect(order(world.measured, 3)).toEqual(order(world.measured, 1));
    expect(world.measured).toHaveLength(12);
    expect(results.map((r) => [r.runtimeLabel, r.mode, r.status, r.runDetails?.map((run) => run.round)])).toEqual([
      ['A', 'sync', 'ok', [1, 2, 3]],
      ['A', 'async', 'ok', [1, 2, 3]],
      ['B', 'sync', 'ok', [1, 2, 3]],
      ['B', 'async', 'ok', [1, 2, 3]],
    ]);
  });

  it('gives more rounds only to the lane whose cell is short of its CV target, up to the cap', async () => {
    const noisy = [1000, 1400, 700, 1300, 800, 1200, 900];
    const world = fakeWorld({ rps: (run) => (run.label === 'A' && run.mode === 'sync' ? (noisy[run.round - 1] ?? 1000) : 1000) });
    const results = byName(await benchGroup(cells, [lane('A'), lane('B')], context(world, settings({ maxRuns: 6, targetCv: 0.05 }))));
    expect(results.get('A sync')?.runDetails).toHaveLength(6);
    // The lane's other cell runs beside it, round for round: a ratio pairs runs of one round.
    expect(results.get('A async')?.runDetails).toHaveLength(6);
    expect(results.get('B sync')?.runDetails).toHaveLength(3);
    expect(results.get('A sync')?.precision).toEqual({ targetCv: 0.05, met: false });
    expect(results.get('B sync')?.precision).toEqual({ targetCv: 0.05, met: true });
  });

  it('splits the runs between server processes when the plan asks (4 runs, 2 processes: a new one before round 3)', async () => {
    const world = fakeWorld();
    const results = await benchGroup(cells, [lane('A')], context(world, settings({ runs: 4, maxRuns: 4, serverProcesses: 2 })));
    expect(world.started.map((s) => s.label)).toEqual(['A', 'A']);
    expect(results[0]?.runDetails?.map((run) => run.serverProcess)).toEqual([1, 1, 2, 2]);
  });
});

describe("bench:ab's rounds", () => {
  // sync's lanes have what the verdict needs after 2 pairs of processes; async's after 3.
  const need = (seen: (readonly LaneRuns[])[]) => (lanes: readonly LaneRuns[]) => {
    seen.push(lanes);
    const [first] = lanes;
    if (first === undefined || first.runs[0]?.requestsPerSec === 1000) return 0;
    return first.runs.length < 6 ? 1 : 0;
  };

  it("runs each cell's A and B back to back, the first lane on a fresh process pair alternating", async () => {
    const world = fakeWorld({ rps: (run) => (run.mode === 'sync' ? 1000 : 2000) });
    const seen: (readonly LaneRuns[])[] = [];
    const logs: string[] = [];
    const plan = settings({ runs: 4, maxRuns: 10, roundsPerProcess: 2 });
    const results = byName(
      await benchGroup(cells, [lane('node-A', 'a'), lane('node-B', 'b')], context(world, plan, { policy: abRounds(need(seen)), logs })),
    );
    expect(order(world.measured, 1)).toEqual(['node-A sync', 'node-B sync', 'node-A async', 'node-B async']);
    expect(order(world.measured, 2)).toEqual(['node-B async', 'node-A async', 'node-B sync', 'node-A sync']);
    expect(order(world.measured, 3)).toEqual(['node-B sync', 'node-A sync', 'node-B async', 'node-A async']);
    // The rule finds the sides by their role, whatever the lanes are called.
    expect(seen[0]?.map((l) => l.role)).toEqual(['a', 'b']);
    // sync stops after 2 pairs of processes, async after 3: only async runs rounds 5 and 6.
    expect(results.get('node-A sync')?.runDetails).toHaveLength(4);
    expect(results.get('node-B sync')?.runDetails).toHaveLength(4);
    expect(results.get('node-A async')?.runDetails).toHaveLength(6);
    expect(order(world.measured, 5)).toEqual(['node-A async', 'node-B async']);
    expect(logs).toContain('bench:ab: node hash/sync: 2 pairs of processes are enough for the verdict; the other cells go on');
    // A new pair of processes every 2 rounds: 3 servers on each lane, each serving whole pairs of rounds.
    expect(world.started.filter((s) => s.label === 'node-A')).toHaveLength(3);
    expect(results.get('node-A async')?.runDetails?.map((run) => run.serverProcess)).toEqual([1, 1, 2, 2, 3, 3]);
  });

  it('stops at the cap whatever the rule still needs, in whole process pairs', async () => {
    const world = fakeWorld({ rps: () => 2000 });
    const plan = settings({ runs: 2, maxRuns: 5, roundsPerProcess: 2 });
    const results = await benchGroup(
      cells,
      [lane('node-A', 'a'), lane('node-B', 'b')],
      context(world, plan, { policy: abRounds(() => 3) }),
    );
    expect(results.map((r) => r.runDetails?.length)).toEqual([4, 4, 4, 4]);
  });

  it('asks for no more process pairs when the budget says no', async () => {
    const world = fakeWorld({ rps: () => 2000 });
    const plan = settings({ runs: 2, maxRuns: 10, roundsPerProcess: 2 });
    const asked: number[] = [];
    const ctx = context(world, plan, {
      policy: abRounds(() => 2),
      mayExtend: (weight) => {
        asked.push(weight);
        return false;
      },
    });
    const results = await benchGroup(cells, [lane('node-A', 'a'), lane('node-B', 'b')], ctx);
    expect(asked).toEqual([2]);
    expect(results.map((r) => r.runDetails?.length)).toEqual([2, 2, 2, 2]);
  });
});

describe('a server lost or an interruption mid-cell', () => {
  it("fails the cell whose server died, and measures the lane's next cell on a new server", async () => {
    const world = fakeWorld({
      onRun: (run, server) => {
        if (run.label === 'A' && run.mode === 'sync' && run.round === 2) {
          server.die();
          throw new ServerLost('server exited with code 1 during the run');
        }
      },
    });
    const results = byName(await benchGroup(cells, [lane('A'), lane('B')], context(world, settings())));
    expect(results.get('A sync')).toMatchObject({ status: 'failed', reason: 'server exited with code 1 during the run' });
    expect(results.get('A async')?.status).toBe('ok');
    expect(results.get('A async')?.runDetails?.map((run) => run.serverProcess)).toEqual([1, 1, 2]);
    expect(results.get('B sync')?.runDetails).toHaveLength(3);
    expect(world.started.map((s) => s.label)).toEqual(['A', 'B', 'A']);
  });

  it('fails every cell of a lane whose server will not start, and marks its runtime failed', async () => {
    const world = fakeWorld({ refuse: 'B' });
    const lanes = [lane('A'), lane('B')];
    const results = byName(await benchGroup(cells, lanes, context(world, settings())));
    expect(results.get('B sync')).toMatchObject({ status: 'failed', reason: 'server did not start: exited with code 1' });
    expect(results.get('A sync')?.status).toBe('ok');
    expect(lanes[1]?.entry).toMatchObject({ status: 'failed', reason: 'exited with code 1' });
  });

  it('hands back the finished runs of every cell when interrupted, then stops', async () => {
    const stop = new AbortController();
    const world = fakeWorld({
      onRun: (run) => {
        if (run.round === 2 && run.mode === 'sync' && run.label === 'B') {
          stop.abort();
          throw new Interrupted('interrupted');
        }
      },
    });
    let kept: CellResult[] = [];
    const group = benchGroup(cells, [lane('A'), lane('B')], context(world, settings(), { signal: stop.signal }), (partial) => {
      kept = partial;
    });
    await expect(group).rejects.toBeInstanceOf(Interrupted);
    // Round 2 ran B async, then B sync was interrupted: A's cells had 1 run, B async 2, B sync 1.
    expect(kept.map((c) => [c.runtimeLabel, c.mode, c.runDetails?.length, c.reason])).toEqual([
      ['A', 'sync', 1, 'interrupted after 1 run(s)'],
      ['A', 'async', 1, 'interrupted after 1 run(s)'],
      ['B', 'sync', 1, 'interrupted after 1 run(s)'],
      ['B', 'async', 2, 'interrupted after 2 run(s)'],
    ]);
  });

  it('keeps the finished runs synchronously on a stop at once (a second Ctrl-C), and nothing once the group is over', async () => {
    let kept: CellResult[] = [];
    const world = fakeWorld({
      onRun: (run) => {
        if (run.round === 2 && run.label === 'A' && run.mode === 'async') keepUnfinishedGroup();
      },
    });
    await benchGroup(cells, [lane('A')], context(world, settings()), (partial) => {
      kept = partial;
    });
    expect(kept.map((c) => [c.mode, c.runDetails?.length])).toEqual([
      ['sync', 1],
      ['async', 1],
    ]);
    kept = [];
    keepUnfinishedGroup();
    expect(kept).toEqual([]);
  });
});
