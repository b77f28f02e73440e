import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checksum32 } from '../src/workloads/checksum.ts';
import { generateDataFiles, hasDataFiles, loadManifest } from '../src/workloads/data-files.ts';
import { fibAsync, fibMemo, fibPlain, fibSync, spin } from '../src/workloads/fib.ts';
import { ScenarioPool } from '../src/workloads/scenario-pool.ts';
import { LATE_CAPACITY, LagSampler } from '../src/lag-sampler.ts';

describe('fib', () => {
  it('every variant and mode agrees with the closed values', async () => {
    const want = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55];
    for (let n = 0; n <= 10; n++) {
      expect(fibPlain(n)).toBe(want[n]);
      expect(fibMemo(n)).toBe(want[n]);
      for (const variant of ['plain', 'busy', 'memo'] as const) {
        for (const asyncDepth of [0, 3, 40]) {
          const job = { n, variant, busyExponent: 2, asyncDepth };
          expect(fibSync(job)).toBe(want[n]);
          expect(await fibAsync(job)).toBe(want[n]);
        }
      }
    }
  });

  it('the busy spin does n ** exponent iterations', () => {
    // sum of 0..k-1 mod 1_000_003 for k = 3 ** 4 = 81 is 3240
    expect(spin(3, 4)).toBe(3240);
    expect(spin(5, 0)).toBe(0);
  });

  it('async recursion yields no parallelism: the loop gets no turn until it is done', async () => {
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const pending = fibAsync({ n: 22, variant: 'plain', busyExponent: 0, asyncDepth: 30 });
    await pending;
    // Only microtasks ran between start and end, so the 0 ms timer is still waiting.
    expect(timerRan).toBe(false);
  });
});

describe('ScenarioPool', () => {
  const settings = { dataDir: '/nonexistent', hashCost: 4, fibN: 10, fibVariant: 'plain', busyExponent: 0, asyncDepth: 0, sleepMs: 1 };
  const worker = new URL('./scenario-worker-tsx.mjs', import.meta.url);
  const fib = new URL('../src/scenarios/fib.ts', import.meta.url).href;

  it('runs jobs on its threads, more jobs than threads, and closes', async () => {
    const pool = new ScenarioPool(2, { modules: [fib], settings }, worker);
    try {
      await pool.ready;
      const values = await Promise.all(
        [20, 21, 22, 23, 24].map((n) => pool.run('fib', { n, variant: 'plain', busyExponent: 0, asyncDepth: 0 })),
      );
      expect(values).toEqual([6765, 10946, 17711, 28657, 46368]);
      expect(pool.size).toBe(2);
      await expect(pool.run('nope', {})).rejects.toThrow(/no scenario nope/);
    } finally {
      await pool.close();
    }
    await expect(pool.run('fib', { n: 1, variant: 'plain', busyExponent: 0, asyncDepth: 0 })).rejects.toThrow(/closed/);
  });

  it('ends a call at its timeout by terminating the thread, and serves the next call on a new one', async () => {
    const regex = new URL('../src/scenarios/regex.ts', import.meta.url).href;
    const pool = new ScenarioPool(1, { modules: [regex], settings }, worker);
    try {
      await pool.ready;
      // n=26 backtracks through 2^26 ways (hundreds of ms); 20 ms ends it long before.
      await expect(pool.run('regex', { n: 26 }, 20)).rejects.toMatchObject({ name: 'AbortError' });
      expect(await pool.run('regex', { n: 5 }, 5000)).toEqual({ n: 5, length: 6, matched: false });
    } finally {
      await pool.close();
    }
  });

  it('is not ready when a module throws in setup() in its threads, and says which', async () => {
    const file = new URL('../src/scenarios/file.ts', import.meta.url).href;
    const pool = new ScenarioPool(1, { modules: [fib, file], settings }, worker);
    try {
      await expect(pool.ready).rejects.toThrow(/file\.ts: setup\(\) threw in a worker thread: data files missing/);
    } finally {
      await pool.close();
    }
  });
});

describe('checksum32', () => {
  it("is the content's CRC-32 as 8 hex digits", () => {
    // The standard check value of CRC-32 (ISO-HDLC): "123456789" -> cbf43926.
    expect(checksum32(new TextEncoder().encode('123456789'))).toBe('cbf43926');
    expect(checksum32(new Uint8Array(0))).toBe('00000000');
    expect(checksum32(new Uint8Array([0x61]))).toBe('e8b7be43');
    // an unaligned view gives the same answer as an aligned copy
    const big = new Uint8Array(17).map((_, i) => i * 13);
    expect(checksum32(big.subarray(1))).toBe(checksum32(big.slice(1)));
  });
});

describe('data files', () => {
  it('a manifest from before its checksums were CRC-32 is not reused: the set is made again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-data-'));
    try {
      const made = generateDataFiles(dir, 2, 4096);
      expect(made.checksums).toBe('crc32');
      expect(made.files[0]?.checksum).toBe(checksum32(readFileSync(join(dir, 'file-0000.bin'))));
      expect(hasDataFiles(dir, 2, 4096)).toBe(true);
      const { checksums: _, ...older } = made;
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(older));
      expect(hasDataFiles(dir, 2, 4096)).toBe(false);
      expect(() => loadManifest(dir)).toThrow(/checksums of an older version; regenerate with `pnpm data`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('LagSampler', () => {
  it('records how late each tick came and resets', () => {
    let now = 0;
    const sampler = new LagSampler(10, () => now);
    sampler.reset();
    for (const step of [10, 10, 10, 60, 10]) {
      now += step;
      sampler.tick();
    }
    const summary = sampler.summary();
    expect(summary.samples).toBe(5);
    expect(summary.max).toBeCloseTo(50, 1);
    expect(summary.p50).toBeLessThan(0.01);
    sampler.reset();
    expect(sampler.summary()).toEqual({ p50: 0, p99: 0, max: 0, samples: 0 });
  });

  it('keeps, once asked, each interval a tick was late past the threshold, from when it was due to when it ran', () => {
    let now = 1000;
    const sampler = new LagSampler(10, () => now);
    sampler.reset();
    const steps = (list: number[]) => {
      for (const step of list) {
        now += step;
        sampler.tick();
      }
    };
    steps([10, 40]);
    expect(sampler.lateIntervals()).toEqual({ thresholdMs: null, nowMs: 1050, intervals: [], dropped: 0 });
    sampler.recordLate(10);
    // Late by 0, 30, 10 (not past 10) and 15 ms.
    steps([10, 40, 20, 25]);
    expect(sampler.lateIntervals()).toEqual({
      thresholdMs: 10,
      nowMs: 1145,
      intervals: [
        [1070, 1100],
        [1130, 1145],
      ],
      dropped: 0,
    });
    // A capped ring: the latest intervals are kept, the count of the rest is said.
    steps(Array.from({ length: LATE_CAPACITY + 5 }, () => 30));
    const full = sampler.lateIntervals();
    expect(full.intervals).toHaveLength(LATE_CAPACITY);
    expect(full.dropped).toBe(7);
    expect(full.intervals.at(-1)).toEqual([now - 20, now]);
    sampler.recordLate(undefined);
    steps([50]);
    expect(sampler.lateIntervals().intervals).toEqual([]);
  });
});
