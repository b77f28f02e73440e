import { describe, expect, it } from 'vitest';
import { laneStart, runLanes } from '../src/bench/lanes.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { runtimeSpec } from '../src/servers/runtimes.ts';

describe('laneStart', () => {
  const servers = { args: ['--scenarios', 'hello'], env: { A: 'run', B: 'run' }, cpus: '1' };

  it("adds the lane's process count, then its module file, to the run's flags; its env over the run's", () => {
    const lane = { spec: runtimeSpec('node'), processes: 2, moduleFile: '/m.ts', env: { B: 'lane' } };
    expect(laneStart(lane, servers, true)).toEqual({
      serverArgs: ['--scenarios', 'hello', '--processes', '2', '--scenario-file', '/m.ts'],
      processes: 2,
      cpus: '1',
      env: { A: 'run', B: 'lane' },
    });
  });

  it('leaves the process count off a profiled server, and adds nothing for a plain lane', () => {
    expect(laneStart({ spec: runtimeSpec('node'), processes: 1 }, servers, false)).toEqual({
      serverArgs: ['--scenarios', 'hello'],
      cpus: '1',
      env: { A: 'run', B: 'run' },
    });
    expect(laneStart({ spec: runtimeSpec('node') }, { args: [] }, true)).toEqual({ serverArgs: [] });
  });
});

describe('runLanes', () => {
  const setup = () => ({
    log: () => {},
    serverCpuCount: 2,
  });

  it("makes one lane per installation and process count (auto: the servers' CPUs), one report entry per installation", () => {
    const run = setup();
    const given = [
      { spec: { ...runtimeSpec('node'), label: 'node-A' } },
      { spec: { ...runtimeSpec('node'), label: 'node-B' }, env: { X: '1' } },
    ];
    const { lanes, skipped, entries, autoProcesses } = runLanes(parsePlan(['--runtimes', 'node', '--processes', '1,auto']), run, given);
    expect(skipped).toBe(0);
    expect(lanes.map((l) => `${l.spec.label} x${l.processes}`)).toEqual(['node-A x1', 'node-A x2', 'node-B x1', 'node-B x2']);
    expect(lanes[2]?.env).toEqual({ X: '1' });
    expect(entries.map((r) => r.label)).toEqual(['node-A', 'node-B']);
    expect(lanes[0]?.entry).toBe(lanes[1]?.entry);
    expect(autoProcesses).toEqual({ count: 2, cpusOf: 'this host' });
  });

  it('counts the lanes of an installation that cannot run as skipped, and says why', () => {
    const run = setup();
    const lines: string[] = [];
    const broken = { spec: { ...runtimeSpec('node'), label: 'node@0', unavailable: 'not installed' } };
    const { lanes, skipped, entries } = runLanes(
      parsePlan(['--runtimes', 'node', '--processes', '1,2']),
      { ...run, log: (l) => lines.push(l) },
      [broken],
    );
    expect(lanes).toEqual([]);
    expect(skipped).toBe(2);
    expect(lines).toEqual(['node@0: skipped: not installed']);
    expect(entries[0]).toMatchObject({ status: 'skipped', reason: 'not installed' });
  });
});
