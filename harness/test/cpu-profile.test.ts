import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectProfiles } from '../src/servers/profiler.ts';
import {
  parseCpuProfile,
  shortUrl,
  sliceProfile,
  summariseProfile,
  threadProfile,
  type CpuProfile,
  type ProfileNode,
} from '../src/profile/cpu-profile.ts';
import { flameTree } from '../src/profile/flame-tree.ts';
import { lateIn, windowIn } from '../src/bench/profile-runs.ts';

/**
 * A profile built from a list of (stack, µs) steps, one sample each, as V8 writes them: a tree of
 * nodes under (root), each sample naming its leaf node, each delta the time since the last one.
 */
function profileOf(steps: [string[], number][]): CpuProfile {
  const nodes: ProfileNode[] = [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [] }];
  const ids = new Map<string, number>();
  const nodeFor = (stack: string[]): number => {
    let at = 1;
    for (let depth = 0; depth < stack.length; depth++) {
      const path = stack.slice(0, depth + 1).join('>');
      let id = ids.get(path);
      if (id === undefined) {
        id = nodes.length + 1;
        ids.set(path, id);
        const [name, url = '', line = '-1'] = (stack[depth] ?? '').split('@');
        nodes.push({ id, callFrame: { functionName: name ?? '', url, lineNumber: Number(line) }, children: [] });
        nodes.find((n) => n.id === at)?.children?.push(id);
      }
      at = id;
    }
    return at;
  };
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const [stack, us] of steps) {
    samples.push(nodeFor(stack));
    timeDeltas.push(us);
  }
  const span = timeDeltas.reduce((a, b) => a + b, 0);
  return { nodes, startTime: 1_000_000, endTime: 1_000_000 + span + 100, samples, timeDeltas };
}

const repeat = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item);

const FIB = ['handler@file:///app/src/routes.ts@11', 'fib@file:///app/src/workloads/fib.ts@15'];
const FIB_DEEP = [...FIB, 'fib@file:///app/src/workloads/fib.ts@15'];
const HASH = ['handler@file:///app/src/routes.ts@11', 'hashSync@file:///app/node_modules/bcrypt/bcrypt.js@84'];

describe('summariseProfile', () => {
  it('names the recursion that held the loop, counting each function once per sample in its total', () => {
    // 15 ms of fib (a stall), back to the loop, 5 ms idle, then 2 ms of fib (no stall).
    const profile = profileOf([
      ...repeat(75, [FIB, 100] as [string[], number]),
      ...repeat(75, [FIB_DEEP, 100] as [string[], number]),
      [['(program)'], 100],
      ...repeat(50, [['(idle)'], 100] as [string[], number]),
      ...repeat(20, [FIB, 100] as [string[], number]),
      [['(idle)'], 100],
    ]);
    const summary = summariseProfile(profile);
    expect(summary.intervalUs).toBe(100);
    expect(summary.bySelf[0]).toMatchObject({ name: 'fib', where: 'workloads/fib.ts:16', kind: 'js', selfMs: 17 });
    // The recursion is counted once a sample: fib's total is its self time, not twice that.
    expect(summary.byTotal.find((f) => f.name === 'fib')?.totalMs).toBe(17);
    expect(summary.byTotal.find((f) => f.name === 'handler')?.totalMs).toBe(17);
    expect(summary.byTotal.some((f) => f.kind === 'vm')).toBe(false);
    expect(summary.held).toMatchObject({ thresholdMs: 10, stretches: 1, ms: 15, longestMs: 15 });
    expect(summary.held?.holders).toEqual([{ name: 'fib', where: 'workloads/fib.ts:16', kind: 'js', ms: 15, share: 1 }]);
    expect(summary.idleShare).toBeGreaterThan(0.2);
  });

  it('credits native code shown as an unnamed child (as Bun writes it) to the function that called it', () => {
    const profile = profileOf([...repeat(120, [[...HASH, ''], 100] as [string[], number]), [['(idle)'], 100]]);
    const summary = summariseProfile(profile);
    expect(summary.bySelf[0]).toMatchObject({ name: 'hashSync', where: 'bcrypt/bcrypt.js:85' });
    expect(summary.held?.holders[0]).toMatchObject({ name: 'hashSync', share: 1 });
  });

  it('reads a long gap between samples as waiting, not as more of the last function (Bun samples no idle thread)', () => {
    const profile = profileOf([
      ...repeat(10, [FIB, 100] as [string[], number]),
      // 200 ms without a sample, then more fib: the thread waited in between.
      [FIB, 200_000],
      ...repeat(10, [FIB, 100] as [string[], number]),
    ]);
    const summary = summariseProfile(profile);
    // 20 samples of 100 µs, and the one before the gap counted at the cap (four intervals).
    expect(summary.bySelf[0]?.selfMs).toBeCloseTo(2.4, 3);
    expect(summary.idleShare).toBeGreaterThan(0.9);
    expect(summary.held?.stretches).toBe(0);
  });

  it('an idle main thread: nothing held, nearly all idle', () => {
    const profile = profileOf(repeat(500, [['(idle)'], 100] as [string[], number]));
    const summary = summariseProfile(profile);
    expect(summary.held).toMatchObject({ stretches: 0, ms: 0, holders: [] });
    expect(summary.idleShare).toBeGreaterThan(0.95);
    expect(summary.busyShare).toBe(0);
  });

  it('reads only the window asked for', () => {
    const profile = profileOf([
      ...repeat(200, [['setup@file:///app/src/setup.ts@3'], 100] as [string[], number]),
      ...repeat(100, [HASH, 100] as [string[], number]),
    ]);
    const summary = summariseProfile(profile, { fromUs: 20_050 });
    expect(summary.bySelf.map((f) => f.name)).toEqual(['hashSync']);
  });
});

describe('summariseProfile with the late intervals of the server', () => {
  // 0-30 ms: a 30 ms fib request (the loop late from 10 ms, when the tick was due, to 30 ms);
  // 30-40 ms: idle; 40-60 ms: hashSync through its native child (late 50-60 ms); 60-100 ms idle
  // but for 1 ms of fib at 80 ms that is no stall.
  const profile = profileOf([
    ...repeat(300, [FIB_DEEP, 100] as [string[], number]),
    ...repeat(100, [['(idle)'], 100] as [string[], number]),
    ...repeat(200, [[...HASH, ''], 100] as [string[], number]),
    ...repeat(200, [['(idle)'], 100] as [string[], number]),
    ...repeat(10, [FIB, 100] as [string[], number]),
    ...repeat(190, [['(idle)'], 100] as [string[], number]),
  ]);
  // Sample i is at (i + 1) * 100 µs after the start.
  const late = {
    thresholdMs: 10,
    intervals: [
      { fromUs: 10_000, toUs: 30_000 },
      { fromUs: 50_000, toUs: 60_000 },
    ],
  };

  it('names what was on top of the stack while the loop was late, recursion and idle time left out', () => {
    const summary = summariseProfile(profile, { late });
    expect(summary.held).toBeUndefined();
    expect(summary.late).toMatchObject({ thresholdMs: 10, stalls: 2, ms: 30, share: 0.3, longestMs: 20, sampledMs: 30 });
    expect(summary.late?.holders.map((h) => [h.name, h.where, h.ms, h.share])).toEqual([
      ['fib', 'workloads/fib.ts:16', 20, 0.667],
      ['hashSync', 'bcrypt/bcrypt.js:85', 10, 0.333],
    ]);
    // The caller skips fib's recursion to the function that called it.
    expect(summary.late?.holders[0]?.caller).toEqual({ name: 'handler', where: 'src/routes.ts:12', kind: 'js' });
  });

  it('reads the intervals within the window only, and none in the window as none', () => {
    const second = summariseProfile(profile, { fromUs: 40_000, toUs: 100_000, late });
    expect(second.late).toMatchObject({ stalls: 1, ms: 10, sampledMs: 10 });
    expect(second.late?.holders.map((h) => h.name)).toEqual(['hashSync']);
    const quiet = summariseProfile(profile, { fromUs: 61_000, late });
    expect(quiet.late).toEqual({ thresholdMs: 10, stalls: 0, ms: 0, share: 0, longestMs: 0, sampledMs: 0, holders: [] });
  });

  it('names the samples it finds, whatever they are: a loop late while its thread waited says so', () => {
    const waiting = summariseProfile(profile, { late: { thresholdMs: 10, intervals: [{ fromUs: 85_050, toUs: 99_950 }] } });
    expect(waiting.late?.holders.map((h) => [h.name, h.share])).toEqual([['(idle)', 1]]);
  });

  it('names a native leaf with the function that called it', () => {
    const WRITE = ['handler@file:///app/src/routes.ts@11', 'deflate@file:///app/src/workloads/gzip.ts@4', 'write'];
    const native = profileOf([...repeat(200, [WRITE, 100] as [string[], number]), [['(idle)'], 100]]);
    const summary = summariseProfile(native, { late: { thresholdMs: 10, intervals: [{ fromUs: 0, toUs: 20_000 }] } });
    expect(summary.late?.holders[0]).toMatchObject({
      name: 'write',
      kind: 'native',
      share: 1,
      caller: { name: 'deflate', where: 'workloads/gzip.ts:5', kind: 'js' },
    });
  });
});

describe('lateIn', () => {
  const spawned = { wallMs: 1_795_735_000_000, monotonicUs: 350_000_000_000 };
  // The server answered at its 5,000 ms, midway through a request the harness sent 6 s after the spawn.
  const read = {
    thresholdMs: 10,
    nowMs: 5_000,
    intervals: [[4_000, 4_025] as [number, number]],
    asked: {
      before: { wallMs: spawned.wallMs + 5_999, monotonicUs: spawned.monotonicUs + 5_999_000 },
      after: { wallMs: spawned.wallMs + 6_001, monotonicUs: spawned.monotonicUs + 6_001_000 },
    },
  };
  it("places the server's intervals on Bun's wall clock and Node's and Deno's monotonic clock alike", () => {
    const expected = { thresholdMs: 10, intervals: [{ fromUs: 4_960_000, toUs: 4_985_000 }] };
    expect(lateIn(spawned.wallMs * 1000 + 40_000, spawned, read)).toEqual(expected);
    expect(lateIn(spawned.monotonicUs + 40_000, spawned, read)).toEqual(expected);
  });
});

describe('collectProfiles', () => {
  it("names each runtime's files by thread: Node's and Bun's numbered threads, Deno's main thread and its workers", () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    try {
      for (const [sub, files] of [
        ['node', ['CPU.20261127.032126.18618.0.001.cpuprofile', 'CPU.20261127.032126.18618.1.002.cpuprofile']],
        ['bun', ['CPU.20261127.032127.18634.0.001.cpuprofile']],
        // Deno's worker starts later than its main thread, so its name sorts after the main thread's.
        ['deno', ['CPU.1795749687510.18656.cpuprofile', 'CPU.1795749687685.18656.worker-1.cpuprofile']],
      ] as const) {
        mkdirSync(join(dir, sub));
        for (const file of files) writeFileSync(join(dir, sub, file), file);
      }
      expect(collectProfiles(join(dir, 'node'))).toEqual({
        main: join(dir, 'node/main.cpuprofile'),
        threads: [join(dir, 'node/thread-1.cpuprofile')],
      });
      expect(collectProfiles(join(dir, 'bun'))).toEqual({ main: join(dir, 'bun/main.cpuprofile'), threads: [] });
      const deno = collectProfiles(join(dir, 'deno'));
      expect(deno).toEqual({ main: join(dir, 'deno/main.cpuprofile'), threads: [join(dir, 'deno/thread-worker-1.cpuprofile')] });
      expect(readdirSync(join(dir, 'deno')).sort()).toEqual(['main.cpuprofile', 'thread-worker-1.cpuprofile']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parseCpuProfile', () => {
  it('reads a profile and refuses what is not one', () => {
    const text = JSON.stringify(profileOf([[FIB, 100]]));
    expect(parseCpuProfile(text).samples).toHaveLength(1);
    expect(() => parseCpuProfile('{"nodes": []}')).toThrow(/no samples/);
  });
});

describe('shortUrl', () => {
  it('names a package file from its package, a runtime module as it is, else by its last two parts', () => {
    expect(shortUrl('file:///x/node_modules/.pnpm/bcrypt@6/node_modules/bcrypt/bcrypt.js')).toBe('bcrypt/bcrypt.js');
    expect(shortUrl('node:events')).toBe('node:events');
    expect(shortUrl('file:///home/me/app/src/handler.ts')).toBe('src/handler.ts');
  });
});

describe('sliceProfile', () => {
  it('keeps the samples of the window only, with the same tree, and still reads as a profile', () => {
    const profile = profileOf([
      ...repeat(100, [['setup@file:///app/src/setup.ts@3'], 100] as [string[], number]),
      ...repeat(100, [FIB, 100] as [string[], number]),
    ]);
    const slice = sliceProfile(profile, 10_050, 20_050);
    expect(slice.samples).toHaveLength(100);
    expect(slice.nodes).toBe(profile.nodes);
    expect(slice.endTime - slice.startTime).toBe(10_000);
    expect(summariseProfile(parseCpuProfile(JSON.stringify(slice))).bySelf.map((f) => f.name)).toEqual(['fib']);
  });
});

describe('flameTree', () => {
  it('merges stacks by path, its root the busy time, idle left out', () => {
    const profile = profileOf([
      ...repeat(60, [FIB, 100] as [string[], number]),
      ...repeat(20, [HASH, 100] as [string[], number]),
      ...repeat(20, [['(idle)'], 100] as [string[], number]),
    ]);
    const tree = flameTree(profile);
    expect(tree.ms).toBeCloseTo(8, 1);
    expect(tree.children.map((c) => c.name)).toEqual(['handler']);
    const handler = tree.children[0];
    expect(handler?.children.map((c) => [c.name, c.ms])).toEqual([
      ['fib', 6],
      ['hashSync', 2],
    ]);
  });

  it('leaves out paths under the share asked for', () => {
    const profile = profileOf([...repeat(999, [FIB, 100] as [string[], number]), [HASH, 100]]);
    expect(flameTree(profile, { minShare: 0.01 }).children[0]?.children.map((c) => c.name)).toEqual(['fib']);
  });
});

describe('windowIn', () => {
  const spawned = { wallMs: 1_795_735_000_000, monotonicUs: 350_000_000_000 };
  const window = {
    from: { wallMs: spawned.wallMs + 3_000, monotonicUs: spawned.monotonicUs + 3_000_000 },
    to: { wallMs: spawned.wallMs + 5_000, monotonicUs: spawned.monotonicUs + 5_000_000 },
  };
  it("places a window on Bun's wall clock and on Node's and Deno's monotonic clock alike", () => {
    // Each profiler started 40 ms after the spawn, on its own clock.
    expect(windowIn(spawned.wallMs * 1000 + 40_000, spawned, window)).toEqual({ fromUs: 2_960_000, toUs: 4_960_000 });
    expect(windowIn(spawned.monotonicUs + 40_000, spawned, window)).toEqual({ fromUs: 2_960_000, toUs: 4_960_000 });
  });
  it('falls back to the time since the spawn on a clock it does not know', () => {
    expect(windowIn(12_345, spawned, window)).toEqual({ fromUs: 3_000_000, toUs: 5_000_000 });
  });
});

describe('threadProfile', () => {
  it("counts a pool thread blocked in piscina's wait loop as waiting, its work as busy", () => {
    const WAIT = ['atomicsWaitLoop@file:///x/node_modules/piscina/dist/worker.js@125', 'wait'];
    const WORK = ['onMessage@file:///x/node_modules/piscina/dist/worker.js@150', 'fib@file:///app/src/workloads/fib.ts@15'];
    const profile = profileOf([...repeat(70, [WAIT, 100] as [string[], number]), ...repeat(30, [WORK, 100] as [string[], number])]);
    const thread = threadProfile('profiles/node-hono/thread-1.cpuprofile', summariseProfile(profile));
    expect(thread.busyShare).toBeCloseTo(0.3, 1);
    expect(thread.bySelf.map((f) => f.name)).toEqual(['fib']);
  });
});
