// What fresh memory costs on this host, in the environment of every report (issue 22): /file/*
// reads each 5 MB file into a new buffer, so its cells move with this cost between VM boots.
import { describe, expect, it } from 'vitest';
import type { ThreadUse, Report } from '../src/report/report-types.ts';
import { environmentRows, threadFigures } from '../src/report/render/markdown.ts';
import { firstTouchText } from '../src/report/render/precision.ts';
import { summarizeCell } from '../src/run/cell.ts';
import { environment } from '../src/system/environment.ts';
import { measureFirstTouch } from '../src/system/first-touch.ts';
import { readProc, readProcAll } from '../src/system/proc.ts';
import { makeRun } from './fixtures.ts';

describe('first touch of fresh memory', () => {
  it('times fresh pages that the kernel really faulted in (Linux counts them), a few rounds, a median', () => {
    const t = measureFirstTouch(4, 3);
    expect(t).toBeDefined();
    if (t === undefined) return;
    expect(t).toMatchObject({ rounds: 3, mb: 4 });
    // Every 4 KB page was new: one fault each, or fewer where the kernel maps larger folios, never none.
    expect(t.faultsPerPage).toBeGreaterThan(0);
    expect(t.faultsPerPage).toBeLessThanOrEqual(1.05);
    expect(t.usPerPage).toBeGreaterThan(0);
    // The rate is the per-page time restated: 4096 bytes per usPerPage microseconds.
    expect(t.gbPerSec).toBeCloseTo(4096 / (t.usPerPage * 1000), 1);
  });

  it('is part of every environment, and the Markdown and HTML environment tables show it', () => {
    const env = environment();
    expect(env.memoryFirstTouch?.usPerPage).toBeGreaterThan(0);
    const rows = new Map(environmentRows({ environment: env, runtimes: [] } as unknown as Report));
    expect(rows.get('fresh memory')).toBe(firstTouchText(env.memoryFirstTouch!));
    expect(firstTouchText({ usPerPage: 11.9, gbPerSec: 0.34, faultsPerPage: 1, rounds: 3, mb: 8 })).toBe(
      '11.9 µs per 4 KB page on first touch (0.34 GB/s; 1.00 page faults a page; median of 3 × 8 MB)',
    );
    // Reports from before it was measured have no row, not an empty one.
    const { memoryFirstTouch: _, ...older } = env;
    expect(new Map(environmentRows({ environment: older, runtimes: [] } as unknown as Report)).has('fresh memory')).toBe(false);
  });
});

describe('page faults per request', () => {
  it('/proc counts a process\'s minor faults: 4 MB of fresh memory touched adds about 1,024, summed over a group', () => {
    const before = readProc(process.pid)!;
    const bytes = new Uint8Array(new ArrayBuffer(4 << 20));
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
    const added = readProc(process.pid)!.minorFaults - before.minorFaults;
    // Fewer where the kernel maps larger folios, never none; a few more from the reads themselves.
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThan(1024 + 200);
    expect(readProcAll([process.pid, process.pid])!.minorFaults).toBeGreaterThanOrEqual(2 * (before.minorFaults + added));
  });

  it('a cell reports the median over its runs, and the server-threads table shows it', () => {
    const threads: ThreadUse = { mainCpuPercent: 95, mainWaitMsPerSec: 120, mainWaitPerSliceMs: 0.4, busyThreads: 1, othersCpuPercent: 12, busiest: [] };
    const runs = [1280, 2, 640].map((pageFaultsPerRequest) => makeRun({ pageFaultsPerRequest, threads }));
    const cell = summarizeCell({ runtime: 'bun', scenario: 'file', mode: 'sync', path: '/file/sync' }, runs, { connections: 10 });
    expect(cell.pageFaultsPerRequest).toBe(640);
    expect(threadFigures(cell)?.at(-1)).toBe('640');
    // Runs without the figure (a remote server, an older report) leave it out, not zero.
    const without = summarizeCell({ runtime: 'bun', scenario: 'file', mode: 'sync', path: '/file/sync' }, [makeRun({ threads })], { connections: 10 });
    expect(without.pageFaultsPerRequest).toBeUndefined();
    expect(threadFigures(without)?.at(-1)).toBe('—');
  });
});
