/**
 * Reads a V8-format `.cpuprofile` (what `--cpu-prof` writes on Node, Bun and Deno alike) into
 * what a report says of a cell's main thread: the functions by self and total time, and the
 * functions that ran while the loop was late (the server's own late intervals, placed on the
 * profile's clock) or, without those, held it. Pure: text and intervals in, summary out.
 */
import type { ProfileFunction, ProfileHolder, ProfileLate, ProfileSummary, ThreadProfile } from '../model/profile.ts';
import { readableName } from './function-name.ts';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** µs, on the runtime's own clock (monotonic on Node and Deno, the wall clock on Bun). */
  startTime: number;
  endTime: number;
  samples: number[];
  /** µs before each sample. */
  timeDeltas: number[];
}

/** The profile in `text`, or an error naming what is missing. */
export function parseCpuProfile(text: string): CpuProfile {
  const value = JSON.parse(text) as Partial<CpuProfile>;
  for (const key of ['nodes', 'samples', 'timeDeltas'] as const)
    if (!Array.isArray(value[key])) throw new Error(`not a CPU profile: no ${key} array`);
  if (typeof value.startTime !== 'number' || typeof value.endTime !== 'number') throw new Error('not a CPU profile: no startTime/endTime');
  if (value.samples?.length !== value.timeDeltas?.length) throw new Error('not a CPU profile: samples and timeDeltas differ in length');
  return value as CpuProfile;
}

/**
 * The part of a profile between two times (µs after its startTime): the same call tree, only the
 * samples taken then, so one process's profile can be opened a cell at a time.
 */
export function sliceProfile(profile: CpuProfile, fromUs: number, toUs: number): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let t = 0;
  let last = fromUs;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < fromUs || t >= toUs) continue;
    samples.push(profile.samples[i] ?? 0);
    timeDeltas.push(t - last);
    last = t;
  }
  return { ...profile, startTime: profile.startTime + fromUs, endTime: profile.startTime + toUs, samples, timeDeltas };
}

/** The VM's own entries: not code of anyone's. */
export const IDLE = '(idle)';
const PROGRAM = '(program)';
const GC = '(garbage collector)';
export const ROOT = '(root)';

export interface SummaryOptions {
  /** The part of the profile to read, µs after its startTime; default the whole. */
  fromUs?: number;
  toUs?: number;
  /** A stretch of code running this long without a return to the loop is a stall (where no late intervals are given). */
  thresholdMs?: number;
  /**
   * The intervals the server's lag sampler saw the loop late by more than `thresholdMs`, µs after
   * the profile's startTime: given, the summary names what ran in them (`late`) instead of
   * guessing stalls from the samples (`held`).
   */
  late?: LateInput;
  /** Functions listed in each ranking. */
  top?: number;
}

export interface LateInput {
  thresholdMs: number;
  intervals: { fromUs: number; toUs: number }[];
}

export interface Key {
  key: string;
  name: string;
  where?: string;
  kind: ProfileFunction['kind'];
}

/**
 * What the main thread did in the window. A sample's time is the gap to the next sample, capped
 * at four times the median gap: Bun's profiler takes no sample while the thread waits, so a
 * longer gap is idle time, not more of the function last seen.
 */
export function summariseProfile(profile: CpuProfile, options: SummaryOptions = {}): ProfileSummary {
  const thresholdUs = (options.thresholdMs ?? 10) * 1000;
  const top = options.top ?? 10;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Bun shows the native code a function called as an unnamed child without a script: its
  // time is that caller's, as Node and Deno count it (hashSync, not "(anonymous)").
  const keyOf: (id: number) => Key = memo((id: number): Key => {
    const k = frameKey(byId.get(id)?.callFrame);
    const up = parent.get(id);
    if (k.kind !== 'native' || k.name !== '(anonymous)' || up === undefined) return k;
    const caller = keyOf(up);
    return caller.kind === 'vm' ? k : caller;
  });
  // The nearest frame of another function than the leaf's (recursion skipped), JavaScript or native.
  const callerOf = memo((id: number): Key | undefined => {
    const leaf = keyOf(id);
    for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
      const k = keyOf(at);
      if (k.name === ROOT) return undefined;
      if (k.key !== leaf.key && k.kind !== 'vm') return k;
    }
    return undefined;
  });
  // Every distinct function on a node's stack (recursion counted once), leaf first.
  const stackOf = memo((id: number): Key[] => {
    const seen = new Map<string, Key>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = keyOf(at);
      if (k.name !== ROOT && !seen.has(k.key)) seen.set(k.key, k);
    }
    return [...seen.values()];
  });

  const gaps = profile.timeDeltas.slice(1).filter((d) => d > 0);
  const intervalUs = upperMedian(gaps) ?? 0;
  const cap = intervalUs * 4;
  const from = options.fromUs ?? 0;
  const to = options.toUs ?? profile.endTime - profile.startTime;
  const windowUs = Math.max(0, to - from);

  const self = new Map<string, { k: Key; us: number }>();
  const total = new Map<string, { k: Key; us: number }>();
  const holders = new Map<string, { k: Key; us: number }>();
  const lateHolders = new Map<string, { k: Key; us: number; callers: Map<string, { k: Key; us: number }> }>();
  const lateIn = clipIntervals(options.late?.intervals ?? [], from, to);
  let lateAt = 0;
  let lateSampledUs = 0;
  let gcUs = 0;
  let busyUs = 0;
  let samples = 0;
  const held = { stretches: 0, us: 0, longestUs: 0 };
  let run: { us: number; leaves: { k: Key; us: number }[] } = { us: 0, leaves: [] };
  const endRun = () => {
    if (run.us >= thresholdUs) {
      held.stretches++;
      held.us += run.us;
      held.longestUs = Math.max(held.longestUs, run.us);
      for (const leaf of run.leaves) add(holders, leaf.k, leaf.us);
    }
    run = { us: 0, leaves: [] };
  };

  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t >= to) continue;
    const id = profile.samples[i] ?? 0;
    const next = profile.timeDeltas[i + 1];
    const gap = next === undefined ? intervalUs : Math.max(0, next);
    const us = Math.min(gap, cap);
    samples++;
    const leaf = keyOf(id);
    add(self, leaf, us);
    while (lateAt < lateIn.length && (lateIn[lateAt]?.toUs ?? 0) <= t) lateAt++;
    const late = lateIn[lateAt];
    if (late !== undefined && late.fromUs <= t) {
      // What the thread was doing while the loop was late, whatever it was: the VM's own work and waiting included.
      const inLate = Math.min(us, late.toUs - t);
      lateSampledUs += inLate;
      let entry = lateHolders.get(leaf.key);
      if (entry === undefined) {
        entry = { k: leaf, us: 0, callers: new Map() };
        lateHolders.set(leaf.key, entry);
      }
      entry.us += inLate;
      const caller = callerOf(id);
      if (caller !== undefined) add(entry.callers, caller, inLate);
    }
    if (leaf.name === IDLE || leaf.name === PROGRAM || leaf.name === ROOT) {
      // No JavaScript on the stack: the thread is back in the loop (waiting, or its own work).
      if (leaf.name !== IDLE) busyUs += us;
      endRun();
    } else {
      if (leaf.name === GC) gcUs += us;
      else busyUs += us;
      for (const k of stackOf(id)) if (k.kind !== 'vm') add(total, k, us);
      run.us += us;
      run.leaves.push({ k: leaf, us });
    }
    // A gap past the cap: the thread waited unsampled, which is a return to the loop too.
    if (gap > cap) endRun();
  }
  endRun();

  const share = (us: number) => (windowUs > 0 ? round(us / windowUs) : 0);
  const ranked = (m: Map<string, { k: Key; us: number }>, figuresOf: (key: string) => { self: number; total: number }) =>
    [...m.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map(({ k }) => {
        const v = figuresOf(k.key);
        return {
          name: k.name,
          ...(k.where === undefined ? {} : { where: k.where }),
          kind: k.kind,
          selfMs: ms(v.self),
          totalMs: ms(v.total),
          selfShare: share(v.self),
          totalShare: share(v.total),
        } satisfies ProfileFunction;
      });
  const figures = (key: string) => ({ self: self.get(key)?.us ?? 0, total: total.get(key)?.us ?? self.get(key)?.us ?? 0 });
  const heldHolders: ProfileHolder[] = [...holders.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map(({ k, us }) => ({ ...named(k), ms: ms(us), share: held.us > 0 ? round(us / held.us) : 0 }));
  let late: ProfileLate | undefined;
  if (options.late !== undefined) {
    const lateUs = lateIn.reduce((sum, iv) => sum + iv.toUs - iv.fromUs, 0);
    late = {
      thresholdMs: options.late.thresholdMs,
      stalls: lateIn.length,
      ms: ms(lateUs),
      share: share(lateUs),
      longestMs: ms(Math.max(0, ...lateIn.map((iv) => iv.toUs - iv.fromUs))),
      sampledMs: ms(lateSampledUs),
      holders: [...lateHolders.values()]
        .sort((a, b) => b.us - a.us)
        .slice(0, top)
        .map(({ k, us, callers }) => {
          const caller = [...callers.values()].sort((a, b) => b.us - a.us)[0]?.k;
          return {
            ...named(k),
            ms: ms(us),
            share: lateSampledUs > 0 ? round(us / lateSampledUs) : 0,
            ...(caller === undefined ? {} : { caller: named(caller) }),
          };
        }),
    };
  }
  return {
    windowMs: ms(windowUs),
    samples,
    intervalUs: Math.round(intervalUs),
    busyShare: share(busyUs),
    idleShare: share(Math.max(0, windowUs - busyUs - gcUs)),
    gcShare: share(gcUs),
    bySelf: ranked(new Map([...self].filter(([, v]) => v.k.name !== IDLE)), figures),
    byTotal: ranked(total, figures),
    ...(late === undefined
      ? {
          held: {
            thresholdMs: thresholdUs / 1000,
            stretches: held.stretches,
            ms: ms(held.us),
            share: share(held.us),
            longestMs: ms(held.longestUs),
            holders: heldHolders,
          },
        }
      : { late }),
  };
}

const named = (k: Key) => ({ name: k.name, ...(k.where === undefined ? {} : { where: k.where }), kind: k.kind });

/** The intervals cut to the window, in order, overlapping ones merged (a sample is counted once). */
function clipIntervals(
  intervals: readonly { fromUs: number; toUs: number }[],
  from: number,
  to: number,
): { fromUs: number; toUs: number }[] {
  const out: { fromUs: number; toUs: number }[] = [];
  const sorted = intervals
    .map((iv) => ({ fromUs: Math.max(from, iv.fromUs), toUs: Math.min(to, iv.toUs) }))
    .filter((iv) => iv.toUs > iv.fromUs)
    .sort((a, b) => a.fromUs - b.fromUs);
  for (const iv of sorted) {
    const last = out.at(-1);
    if (last !== undefined && iv.fromUs <= last.toUs) last.toUs = Math.max(last.toUs, iv.toUs);
    else out.push({ ...iv });
  }
  return out;
}

/** piscina's idle loop in a pool thread: Atomics.wait until a task comes. */
const POOL_WAIT = 'atomicsWaitLoop';

/**
 * Another thread's figures over a window. A pool thread with nothing to do blocks in Atomics.wait
 * under piscina's wait loop: JavaScript on the stack, but waiting, so that time is not busy.
 */
export function threadProfile(file: string, s: ProfileSummary): ThreadProfile {
  const waiting = s.byTotal.find((f) => f.name === POOL_WAIT)?.totalShare ?? 0;
  const working = waiting === 0 ? s.bySelf : s.bySelf.filter((f) => f.name !== POOL_WAIT && f.name !== 'wait');
  return { file, busyShare: Math.max(0, round(s.busyShare - waiting)), bySelf: working.slice(0, 3) };
}

/** A function's identity and how a report names it: "fibPlain", "workloads/fib.ts:16". */
export function frameKey(frame: CallFrame | undefined): Key {
  const raw = frame?.functionName ?? '';
  const url = frame?.url ?? '';
  if (raw.startsWith('(') && raw.endsWith(')') && url === '') return { key: raw, name: raw, kind: 'vm' };
  const name = raw === '' ? '(anonymous)' : readableName(raw);
  if (url === '') return { key: `${name} native`, name, kind: 'native' };
  const where = `${shortUrl(url)}${(frame?.lineNumber ?? 0) > 0 ? `:${(frame?.lineNumber ?? 0) + 1}` : ''}`;
  return { key: `${name} ${url}:${frame?.lineNumber ?? 0}`, name, where, kind: 'js' };
}

/**
 * A script's name as a reader knows it: from the package in node_modules ("bcrypt/bcrypt.js"),
 * a runtime's own module as it is ("node:events"), else the last two parts of its path. Line 0
 * is left out: Node's TypeScript loader reports 0 for every line of a file it compiled.
 */
export function shortUrl(url: string): string {
  const at = url.lastIndexOf('/node_modules/');
  if (at >= 0) return url.slice(at + '/node_modules/'.length);
  if (!url.includes('/')) return url;
  return url.split('/').slice(-2).join('/');
}

function add(m: Map<string, { k: Key; us: number }>, k: Key, us: number): void {
  const entry = m.get(k.key);
  if (entry === undefined) m.set(k.key, { k, us });
  else entry.us += us;
}

export function memo<T>(f: (id: number) => T): (id: number) => T {
  const cache = new Map<number, T>();
  return (id) => {
    let v = cache.get(id);
    if (v === undefined) {
      v = f(id);
      cache.set(id, v);
    }
    return v;
  };
}

/** The middle value, the upper of the two middle ones for an even count (a sampling interval read off a profile, not a figure of the report). */
export function upperMedian(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const ms = (us: number) => Math.round(us) / 1000;
const round = (x: number) => Math.round(x * 1000) / 1000;
