// Other processes' CPU during a run: the host's busy time less the harness's own tree, read from
// /proc. A busy child outside the tree must show; the same work inside the tree must not.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { hostBusyMs, othersCores, ownCpuMs, readCpu } from '../src/system/host-cpu.ts';
import { sharedHostReason } from '../src/system/host-speed.ts';
import { hostHealth } from '../src/report/text/host-health.ts';
import { environment, makeRun } from './fixtures.ts';

const spin = 'const end = Date.now() + 1500; while (Date.now() < end) {}';
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const busyChild = () =>
  new Promise<void>((resolve) => {
    const child = spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
    children.push(child);
    child.on('exit', () => resolve());
  });

describe.skipIf(process.platform !== 'linux')('other processes on the host', () => {
  it('counts a busy process outside the tree, and not the same process inside it', async () => {
    // Read for two trees at the same instants, so whatever else the host runs (other test files)
    // is alike in both: outside, a sleeping process's tree, which the busy child is not below;
    // inside, this test's own process, the busy child's parent.
    const sleeper = spawn('sleep', ['5'], { stdio: 'ignore' });
    children.push(sleeper);
    const roots = [sleeper.pid ?? 0, process.pid];
    const before = roots.map(readCpu);
    const start = performance.now();
    await busyChild();
    const after = roots.map(readCpu);
    const wallMs = performance.now() - start;
    const [outside, inside] = roots.map((_, i) => othersCores(before[i]!, after[i]!, wallMs));
    expect(inside).toBeGreaterThanOrEqual(0);
    // The child spun for most of the time: at least a third of a core even on a busy host.
    expect(outside! - inside!).toBeGreaterThan(0.33);
  });

  it('flags a cell when a run had a quarter of a core or more taken by others, and says how much', () => {
    expect(sharedHostReason([makeRun(), makeRun()])).toBeUndefined();
    expect(
      sharedHostReason([
        { ...makeRun(), othersCpuCores: 0.1 },
        { ...makeRun(), othersCpuCores: 0.24 },
      ]),
    ).toBeUndefined();
    expect(sharedHostReason([{ ...makeRun(), othersCpuCores: 0.9 }, { ...makeRun(), othersCpuCores: 0.3 }, makeRun()])).toBe(
      "other processes used up to 0.90 cores' worth in 2 of 3 runs",
    );
  });

  it("says at the report's top which cells ran on a shared host, and nothing when none did", () => {
    const cell = (scenario: string, flags: ('shared-host' | 'unstable')[]) => ({
      runtime: 'node' as const,
      scenario,
      mode: 'sync' as const,
      flags,
    });
    expect(hostHealth(environment, [cell('hash', ['unstable'])])).toBeUndefined();
    expect(hostHealth(environment, [cell('hash', []), cell('file', ['shared-host'])])).toEqual({
      text: '⚠ Other processes used the CPU during runs of 1 of 2 cells (node file/sync): their ratios read inconclusive, and `bench:compare` does not judge them.',
      warn: true,
    });
  });

  it("counts processes' time only: irq and softirq are the harness's own traffic as often as anyone's", () => {
    // cpu  user nice system idle iowait irq softirq steal: 100 ticks a second here and on most hosts.
    const ticks = hostBusyMs('cpu  1000 10 500 9000 40 0 0 7\ncpu0 1 2 3\n');
    expect(hostBusyMs('cpu  1000 10 500 9000 40 300 2500 7\n')).toBe(ticks);
    expect(hostBusyMs('cpu  1001 10 500 9000 40 0 0 7\n')).toBeGreaterThan(ticks);
  });

  it("counts the kernel's threads as the harness's own, by their flag and not by pid 2", () => {
    // stat fields after the name: state ppid pgrp session tty tpgid flags ... utime(11) stime(12) cutime cstime.
    const stat = (ppid: number, flags: number, ticks: number) => [
      'S',
      String(ppid),
      '0',
      '0',
      '0',
      '0',
      String(flags),
      '0',
      '0',
      '0',
      '0',
      String(ticks),
      '0',
      '0',
      '0',
    ];
    const stats = [
      { pid: 2, fields: stat(0, 0x208040, 5) }, // kthreadd
      { pid: 40, fields: stat(2, 0x4208040, 30) }, // a kworker
      { pid: 100, fields: stat(1, 0x400100, 7) }, // the harness
      { pid: 101, fields: stat(100, 0x400100, 11) }, // a server it started
      { pid: 200, fields: stat(1, 0x400100, 1000) }, // someone else's
    ];
    const tick = hostBusyMs('cpu  1 0 0\n');
    expect(ownCpuMs(100, stats)).toBe((5 + 30 + 7 + 11) * tick);
    // In a container's pid namespace pid 2 is an ordinary process: not the harness's.
    expect(ownCpuMs(100, [...stats.slice(2), { pid: 2, fields: stat(1, 0x400100, 500) }])).toBe((7 + 11) * tick);
  });

  it('never reads below 0 cores, and 0 for no time', () => {
    expect(othersCores({ hostMs: 100, ownMs: 50 }, { hostMs: 110, ownMs: 80 }, 1000)).toBe(0);
    expect(othersCores({ hostMs: 100, ownMs: 50 }, { hostMs: 200, ownMs: 50 }, 0)).toBe(0);
    expect(othersCores({ hostMs: 100, ownMs: 50 }, { hostMs: 1100, ownMs: 550 }, 1000)).toBe(0.5);
  });
});
