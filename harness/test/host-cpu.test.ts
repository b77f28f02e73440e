// Other processes' CPU during a run: the host's busy time less the harness's own tree, read from
// /proc. A busy child outside the tree must show; the same work inside the tree must not.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { hostBusyMs, othersCores, ownCpu, readCpu } from '../src/system/host-cpu.ts';
import { sharedHostReason } from '../src/system/host-speed.ts';
import { hostHealth } from '../src/report/text/host-health.ts';
import { environment, makeRun } from './fixtures.ts';

// The child says what CPU it got, so the test holds the reading to that and not to a share of a
// core that a loaded 2-CPU machine (the shared test group beside it) may not give it.
const spin =
  'const end = Date.now() + 1500; while (Date.now() < end) {} const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));';
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Runs the busy child to its end; resolves with the CPU milliseconds it used. */
const busyChild = () =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['-e', spin], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('exit', () => resolve(Number(out)));
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
    const childMs = await busyChild();
    const after = roots.map(readCpu);
    const wallMs = performance.now() - start;
    const [outside, inside] = roots.map((_, i) => othersCores(before[i]!, after[i]!, wallMs));
    expect(inside).toBeGreaterThanOrEqual(0);
    // The child spun (a tenth of a core at least, however loaded the host), and what it used
    // shows outside the tree and not inside it: the difference is at least most of its CPU (the
    // clock ticks /proc counts in round each reading down by up to 10 ms).
    const childCores = childMs / wallMs;
    expect(childCores).toBeGreaterThan(0.1);
    expect(outside! - inside!).toBeGreaterThan(childCores * 0.8 - 0.02);
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
      text: '⚠ Other processes used the CPU during runs of 1 of 2 cells (node file/sync): their ratios read "could not tell", and `bench:compare` does not judge them.',
      warn: true,
    });
  });

  it("counts processes' time only: irq and softirq are the harness's own traffic as often as anyone's", () => {
    // cpu  user nice system idle iowait irq softirq steal: 100 ticks a second here and on most hosts.
    const ticks = hostBusyMs('cpu  1000 10 500 9000 40 0 0 7\ncpu0 1 2 3\n');
    expect(hostBusyMs('cpu  1000 10 500 9000 40 300 2500 7\n')).toBe(ticks);
    expect(hostBusyMs('cpu  1001 10 500 9000 40 0 0 7\n')).toBeGreaterThan(ticks);
  });

  // A process table as ownCpu reads it: stat fields after the name, from the state letter:
  // state ppid pgrp session tty tpgid flags ... utime(11) stime(12) cutime(13) cstime(14) ... starttime(19).
  const stat = (ppid: number, flags: number, ticks: number, started = 0) => {
    const fields = Array.from({ length: 20 }, () => '0');
    fields[0] = 'S';
    fields[1] = String(ppid);
    fields[6] = String(flags);
    fields[11] = String(ticks);
    fields[19] = String(started);
    return fields;
  };
  const KTHREAD = 0x208040;
  const USER = 0x400100;
  const tick = hostBusyMs('cpu  1 0 0\n');
  const kernelTotal = (own: { kernelMs: ReadonlyMap<string, number> }) => [...own.kernelMs.values()].reduce((a, b) => a + b, 0);
  /** A reading of synthetic tables: /proc/stat's user ticks and the processes. */
  const reading = (userTicks: number, stats: Parameters<typeof ownCpu>[1]) => ({
    hostMs: hostBusyMs(`cpu  ${userTicks} 0 0 9000 0 0 0 0\n`),
    ...ownCpu(100, stats),
  });

  it("counts the kernel's threads as the harness's own, by their flag and not by pid 2", () => {
    const stats = [
      { pid: 2, name: 'kthreadd', fields: stat(0, KTHREAD, 5) },
      { pid: 40, name: 'kworker/0:1-events', fields: stat(2, 0x4208040, 30) },
      { pid: 100, name: 'node', fields: stat(1, USER, 7) }, // the harness
      { pid: 101, name: 'bun', fields: stat(100, USER, 11) }, // a server it started
      { pid: 200, name: 'cc1plus', fields: stat(1, USER, 1000) }, // someone else's
    ];
    const own = ownCpu(100, stats);
    expect(own.treeMs).toBe((7 + 11) * tick);
    expect(kernelTotal(own)).toBe((5 + 30) * tick);
    // In a container's pid namespace pid 2 is an ordinary process: not the harness's.
    const inContainer = ownCpu(100, [...stats.slice(2), { pid: 2, name: 'sh', fields: stat(1, USER, 500) }]);
    expect(inContainer.treeMs).toBe((7 + 11) * tick);
    expect(inContainer.kernelMs.size).toBe(0);
  });

  it("leaves ksoftirqd out of the harness's own: Linux counts its time as softirq, which the host's busy time leaves out", () => {
    const table = (softirqTicks: number, serverTicks: number) => [
      { pid: 12, name: 'ksoftirqd/0', fields: stat(2, KTHREAD, softirqTicks) },
      { pid: 13, name: 'ksoftirqd/1', fields: stat(2, KTHREAD, softirqTicks) },
      { pid: 100, name: 'node', fields: stat(1, USER, 0) },
      { pid: 101, name: 'bun', fields: stat(100, USER, serverTicks) },
    ];
    expect(ownCpu(100, table(900, 0)).kernelMs.size).toBe(0);
    // One second: the server used 50 ticks, someone else 40; ksoftirqd's 200 ticks on each CPU
    // went to /proc/stat's softirq column, not to user, nice or system.
    const before = reading(1000, table(100, 0));
    const after = reading(1000 + 50 + 40, table(300, 50));
    expect(othersCores(before, after, 1000)).toBe(0.4);
  });

  it('takes a kernel thread that exits between two readings out with what it used in between, not its whole lifetime', () => {
    const harness = (ticks: number) => [
      { pid: 100, name: 'node', fields: stat(1, USER, ticks) },
      { pid: 101, name: 'bun', fields: stat(100, USER, ticks) },
    ];
    const before = reading(10_000, [
      { pid: 40, name: 'kworker/0:1-events', fields: stat(2, KTHREAD, 5000, 10) }, // exits
      { pid: 41, name: 'kworker/1:0-mm_percpu_wq', fields: stat(2, KTHREAD, 100, 20) }, // stays, 10 more
      { pid: 42, name: 'kworker/u4:2-flush', fields: stat(2, KTHREAD, 300, 30) }, // exits; its pid is given out again
      ...harness(1000),
    ]);
    const after = reading(10_000 + 2 * 40 + 10 + 5 + 3 + 30, [
      { pid: 41, name: 'kworker/1:0-mm_percpu_wq', fields: stat(2, KTHREAD, 110, 20) },
      { pid: 42, name: 'kworker/u4:0-events', fields: stat(2, KTHREAD, 5, 500) }, // started since: all of it
      { pid: 43, name: 'kworker/0:2-events', fields: stat(2, KTHREAD, 3, 510) }, // started since
      ...harness(1040),
    ]);
    // Own: 80 (the tree) + 10 + 5 + 3 (kernel threads); the 30 ticks left are someone else's.
    expect(othersCores(before, after, 1000)).toBe(0.3);
  });

  it('never reads below 0 cores, and 0 for no time', () => {
    const at = (hostMs: number, treeMs: number) => ({ hostMs, treeMs, kernelMs: new Map<string, number>() });
    expect(othersCores(at(100, 50), at(110, 80), 1000)).toBe(0);
    expect(othersCores(at(100, 50), at(200, 50), 0)).toBe(0);
    expect(othersCores(at(100, 50), at(1100, 550), 1000)).toBe(0.5);
  });
});
