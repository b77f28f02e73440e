/**
 * The machine-speed sampler: one small child process pinned to each CPU (taskset),
 * timing the same unit of work every SAMPLE_INTERVAL_MS, so every run can say how fast the
 * machine was while it ran (speed-math.ts has the arithmetic and why CPU time is timed).
 *
 * Light by design: a ~0.3 ms unit every 250 ms is ~0.1 % of a CPU per CPU; the sampler
 * measures its own CPU use and the report carries it (overheadPercent).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { coresWorthSpan, fastestUnit, runSpeed, type RunSpeed, type SpeedSample } from './speed-math.ts';
import type { SpeedSummary } from '../model/environment.ts';

export const SAMPLE_INTERVAL_MS = 250;
/** fib(20): ~0.1-0.3 ms on the 2-vCPU EPYC here; long enough to dwarf timer resolution. */
export const UNIT_FIB_N = 20;

/**
 * The child: warm the unit up (JIT), then on every interval boundary of the wall clock (so the
 * CPUs' samples line up in ticks) time one unit in CPU time and print it with its own total CPU.
 * Plain JavaScript run with `node -e`: no tsx start-up, a few MB.
 */
const CHILD = `
const n = Number(process.argv[1]), every = Number(process.argv[2]), cpu = Number(process.argv[3]);
function fib(k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }
let sink = 0, best = Infinity;
for (let i = 0; i < 300; i++) {
  const c0 = process.cpuUsage();
  sink += fib(n);
  const c = process.cpuUsage(c0);
  if (i >= 100) best = Math.min(best, (c.user + c.system) / 1000);
}
// The warm-up's fastest unit, dated 0 (inside no run): the full-speed reference from the start.
if (best > 0 && best < Infinity) process.stdout.write(JSON.stringify({ cpu, at: 0, cpuMs: best, totalMs: 0 }) + '\\n');
function tick() {
  const c0 = process.cpuUsage();
  sink += fib(n);
  const c = process.cpuUsage(c0);
  const total = process.cpuUsage();
  process.stdout.write(JSON.stringify({ cpu, at: Date.now(), cpuMs: (c.user + c.system) / 1000, totalMs: (total.user + total.system) / 1000, sink: sink % 7 }) + '\\n');
  setTimeout(tick, every - (Date.now() % every));
}
setTimeout(tick, every - (Date.now() % every));
process.on('disconnect', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

export interface SpeedSampler {
  /** The machine during [from, to] (ms since the epoch), or undefined with no complete tick. */
  window(from: number, to: number): RunSpeed | undefined;
  /** Everything so far: span of the runs' figures and the sampler's own CPU use. */
  summary(runs: readonly (number | undefined)[]): SpeedSummary;
  stop(): void;
}

/** Starts one sampler child per CPU; pinned when taskset works, else left to the scheduler. */
export function startSpeedSampler(opts: { taskset: boolean; cpus?: number; intervalMs?: number; node?: string }): SpeedSampler {
  const cpus = opts.cpus ?? availableParallelism();
  const every = opts.intervalMs ?? SAMPLE_INTERVAL_MS;
  const node = opts.node ?? process.execPath;
  const samples: SpeedSample[] = [];
  // Per CPU: the child's own CPU total and time at its first and latest sample (steady state:
  // node's start-up and the unit's warm-up are paid once and are not the sampler's running cost).
  const totals = new Map<number, { firstMs: number; firstAt: number; lastMs: number; lastAt: number }>();
  const children: ChildProcess[] = [];
  for (let cpu = 0; cpu < cpus; cpu++) {
    const args = ['-e', CHILD, String(UNIT_FIB_N), String(every), String(cpu)];
    const child = opts.taskset
      ? spawn('taskset', ['-c', String(cpu), node, ...args], { stdio: ['pipe', 'pipe', 'ignore'] })
      : spawn(node, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    child.on('error', () => undefined);
    children.push(child);
    if (child.stdout === null) continue;
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const s = JSON.parse(line) as SpeedSample & { totalMs: number };
        samples.push({ cpu: s.cpu, at: s.at, cpuMs: s.cpuMs });
        const seen = totals.get(s.cpu);
        if (s.at === 0) return;
        totals.set(s.cpu, { firstMs: seen?.firstMs ?? s.totalMs, firstAt: seen?.firstAt ?? s.at, lastMs: s.totalMs, lastAt: s.at });
        // A long session keeps only the last hour of ticks: windows are asked for recent runs.
        if (samples.length > 40_000) samples.splice(0, 10_000);
      } catch {
        // a partial line at exit
      }
    });
  }
  // The harness must not wait for these: they are helpers of the run, not part of it.
  for (const child of children) child.unref();
  return {
    window: (from, to) => runSpeed(samples, fastestUnit(samples), from, to),
    summary: (runs) => {
      const span = coresWorthSpan(runs);
      const share = [...totals.values()].map((t) => (t.lastAt > t.firstAt ? (t.lastMs - t.firstMs) / (t.lastAt - t.firstAt) : 0));
      const used = share.reduce((a, b) => a + b, 0);
      return {
        vcpus: cpus,
        pinned: opts.taskset,
        intervalMs: every,
        ...(span === undefined ? {} : { coresWorth: span }),
        overheadPercent: Math.round(used * 100 * 100) / 100,
        samples: samples.length,
      };
    },
    stop: () => {
      for (const child of children) {
        child.stdin?.end();
        child.kill();
      }
    },
  };
}
