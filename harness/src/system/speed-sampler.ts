/**
 * The machine-speed sampler: one small child process pinned to each CPU (taskset),
 * timing the same unit of work every SAMPLE_INTERVAL_MS, so every run can say how fast the
 * machine was while it ran (speed-math.ts has the arithmetic and why CPU time is timed).
 *
 * Light by design: a ~0.3 ms unit every 250 ms is ~0.15 % of a CPU per CPU; the sampler
 * measures its own CPU use and the report carries it (overheadPercent).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { coresWorthSpan, idleFloor, medianUnit, runSpeed, type RunSpeed, type SpeedSample } from './speed-math.ts';
import type { SpeedSummary } from '../model/environment.ts';

export const SAMPLE_INTERVAL_MS = 250;
/**
 * fib(24): ~0.3 ms on the 2-vCPU EPYC here (fib(20), 0.05 ms, was shorter than an interrupt
 * and read 5-10 % apart from one unit to the next on an idle CPU). ~0.15 % of a CPU per CPU.
 */
export const UNIT_FIB_N = 24;
/** Warm-up units: the first WARMUP_SKIP are JIT, the rest give the median that counts as full speed. */
const WARMUP_UNITS = 200;
const WARMUP_SKIP = 50;

/**
 * The child: warm the unit up (JIT), then on every interval boundary of the wall clock (so the
 * CPUs' samples line up in ticks) time one unit in CPU time and print it with its own total CPU.
 * On a line "ref <id> <n> <calls>" on stdin it times `calls` calls of fib(n) in wall time and
 * prints their lower quartile: the pinned reference loop (bench/reference.ts), taken between runs.
 * Plain JavaScript run with `node -e`: no tsx start-up, a few MB.
 */
const CHILD = `
const n = Number(process.argv[1]), every = Number(process.argv[2]), cpu = Number(process.argv[3]);
function fib(k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
let sink = 0;
const warm = [];
for (let i = 0; i < ${WARMUP_UNITS}; i++) {
  const c0 = process.cpuUsage();
  sink += fib(n);
  const c = process.cpuUsage(c0);
  if (i >= ${WARMUP_SKIP}) warm.push((c.user + c.system) / 1000);
}
// The warm-up's units, dated 0 (inside no run): their median is the full-speed reference (the
// fastest one is an outlier an idle CPU reads 0.7-0.9 of), their spread the sampler's idle noise.
process.stdout.write(JSON.stringify({ cpu, at: 0, cpuMs: med(warm), warm }) + '\\n');
function tick() {
  const c0 = process.cpuUsage();
  sink += fib(n);
  const c = process.cpuUsage(c0);
  const total = process.cpuUsage();
  process.stdout.write(JSON.stringify({ cpu, at: Date.now(), cpuMs: (c.user + c.system) / 1000, totalMs: (total.user + total.system) / 1000, sink: sink % 7 }) + '\\n');
  setTimeout(tick, every - (Date.now() % every));
}
setTimeout(tick, every - (Date.now() % every));
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\\n')) >= 0) {
    const [word, id, refN, calls] = buffered.slice(0, nl).split(' ');
    buffered = buffered.slice(nl + 1);
    if (word !== 'ref') continue;
    sink += fib(Number(refN));
    const times = [];
    for (let i = 0; i < Number(calls); i++) {
      const t0 = process.hrtime.bigint();
      sink += fib(Number(refN));
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    // The lower quartile: an interrupt or a neighbour only ever slows a call, so the fast half is the host's speed.
    const sorted = times.sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({ cpu, ref: Number(id), ms: sorted[Math.floor(sorted.length / 4)], sink: sink % 7 }) + '\\n');
  }
});
process.on('disconnect', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
`;

/** One pinned reference measurement: ms of a call of fib(n) (lower quartile), per CPU. */
export interface ReferenceTiming {
  n: number;
  /** Per CPU that answered, in CPU order: the lower quartile of its calls. */
  ms: number[];
}

export interface SpeedSampler {
  /** The machine during [from, to] (ms since the epoch), or undefined with no complete tick. */
  window(from: number, to: number): RunSpeed | undefined;
  /** Everything so far: span of the runs' figures, the noise floor and the sampler's own CPU use. */
  summary(runs: readonly (number | undefined)[]): SpeedSummary;
  /**
   * Times `calls` calls of fib(n) on the given CPUs at once (each pinned child its own), wall
   * clock: the reference loop. Undefined when a child did not answer within `timeoutMs`.
   */
  reference(n: number, calls: number, cpus?: readonly number[], timeoutMs?: number): Promise<ReferenceTiming | undefined>;
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
  const warmUnits = new Map<number, number[]>();
  const waiting = new Map<number, { want: number; got: Map<number, number>; done: (t: Map<number, number>) => void }>();
  let nextRef = 1;
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
        const s = JSON.parse(line) as SpeedSample & { totalMs: number; warm?: number[]; ref?: number; ms?: number };
        if (s.ref !== undefined && s.ms !== undefined) {
          const wait = waiting.get(s.ref);
          wait?.got.set(s.cpu, s.ms);
          if (wait !== undefined && wait.got.size >= wait.want) wait.done(wait.got);
          return;
        }
        if (s.warm !== undefined) warmUnits.set(s.cpu, s.warm);
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
    window: (from, to) => runSpeed(samples, medianUnit(samples), from, to),
    reference: (n, calls, which, timeoutMs = 5000) => {
      const targets = (which ?? children.map((_, i) => i)).filter((i) => children[i]?.stdin?.writable === true);
      if (targets.length === 0) return Promise.resolve(undefined);
      const id = nextRef++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(undefined);
        }, timeoutMs);
        waiting.set(id, {
          want: targets.length,
          got: new Map(),
          done: (got) => {
            clearTimeout(timer);
            waiting.delete(id);
            resolve({ n, ms: [...got.entries()].sort(([a], [b]) => a - b).map(([, ms]) => ms) });
          },
        });
        for (const i of targets) children[i]?.stdin?.write(`ref ${id} ${n} ${calls}\n`);
      });
    },
    summary: (runs) => {
      const span = coresWorthSpan(runs);
      const share = [...totals.values()].map((t) => (t.lastAt > t.firstAt ? (t.lastMs - t.firstMs) / (t.lastAt - t.firstAt) : 0));
      const used = share.reduce((a, b) => a + b, 0);
      return {
        vcpus: cpus,
        pinned: opts.taskset,
        intervalMs: every,
        ...(span === undefined ? {} : { coresWorth: span }),
        unitFibN: UNIT_FIB_N,
        reference: 'median of the warm-up units',
        ...(warmUnits.size === 0 ? {} : { idleFloor: idleFloor([...warmUnits.values()]) }),
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
