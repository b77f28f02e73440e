// What fresh memory costs on this host, in the environment of every report: /file/*
// reads each 5 MB file into a new buffer, so its cells move with this cost between VM boots.
import { describe, expect, it } from 'vitest';
import type { ThreadUse } from '../src/model/cell.ts';
import type { Report } from '../src/model/report.ts';
import { environmentRows, THREAD_HEAD, threadFigures } from '../src/report/text/labels.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { renderHtml } from '../src/report/render/html.ts';
import { htmlFixtureReport } from './fixtures/html-report.ts';
import { firstTouchText } from '../src/present/precision.ts';
import { pageFaultShare, summarizeCell } from '../src/bench/cell.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { cellRemarks } from '../src/report/flags.ts';
import { allocatorEnv } from '../src/system/allocator.ts';
import { allocatorOf, allocatorText } from '../src/report/text/allocator.ts';
import { environment } from '../src/system/environment.ts';
import { measureFirstTouch } from '../src/system/first-touch.ts';
import { readProc, readProcAll } from '../src/system/proc.ts';
import { makeRun } from './fixtures.ts';

describe('first touch of fresh memory', () => {
  it('times fresh pages that the kernel really faulted in (Linux counts them), a few rounds, a median', () => {
    const t = measureFirstTouch(4, 3);
    expect(t).toBeDefined();
    if (t === undefined) return;
    expect(t.mb).toBe(4);
    expect(t.rounds).toBeGreaterThanOrEqual(1);
    expect(t.rounds).toBeLessThanOrEqual(3);
    // Every 4 KB page counted was new: one fault each, or fewer where the kernel maps larger folios (at least half).
    expect(t.faultsPerPage).toBeGreaterThanOrEqual(0.5);
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
  it("/proc counts a process's minor faults: 4 MB of fresh memory touched adds about 1,024, summed over a group", () => {
    const before = readProc(process.pid)!;
    const bytes = new Uint8Array(new ArrayBuffer(4 << 20));
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
    const added = readProc(process.pid)!.minorFaults - before.minorFaults;
    // Fewer where the kernel maps larger folios, never none; some more from the test's own work (the
    // /proc read, the runtime): 1,317 once here.
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThan(2 * 1024);
    expect(readProcAll([process.pid, process.pid])!.minorFaults).toBeGreaterThanOrEqual(2 * (before.minorFaults + added));
  });

  it('a cell reports the median over its runs, and the server-threads table shows it', () => {
    const threads: ThreadUse = {
      mainCpuPercent: 95,
      mainWaitMsPerSec: 120,
      mainWaitPerSliceMs: 0.4,
      busyThreads: 1,
      othersCpuPercent: 12,
      busiest: [],
    };
    const runs = [1280, 2, 640].map((pageFaultsPerRequest) => makeRun({ pageFaultsPerRequest, threads }));
    const cell = summarizeCell({ runtime: 'bun', scenario: 'file', mode: 'sync', path: '/file/sync' }, runs, { connections: 10 });
    expect(cell.pageFaultsPerRequest).toBe(640);
    expect(threadFigures(cell)?.[THREAD_HEAD.indexOf('page faults / request')]).toBe('640');
    // Runs without the figure (a remote server, an older report) leave it out, not zero.
    const without = summarizeCell({ runtime: 'bun', scenario: 'file', mode: 'sync', path: '/file/sync' }, [makeRun({ threads })], {
      connections: 10,
    });
    expect(without.pageFaultsPerRequest).toBeUndefined();
    expect(threadFigures(without)?.at(-1)).toBe('—');
  });
});

describe('the share of server CPU that went to page faults, and --keep-freed-memory', () => {
  // 100 req/s at 100 % of a core: 10 ms of CPU a request; 250 faults at 16 µs = 4 ms of it.
  const run = (pageFaultsPerRequest: number, requestsPerSec = 100) =>
    makeRun({
      requestsPerSec,
      pageFaultsPerRequest,
      server: { cpuPercent: 100, rssMB: 50 },
      serverSources: { cpu: 'proc', rss: 'proc', lag: 'stats' },
    });

  it("is faults a request x a fresh page's cost over the CPU time a request, a median over runs, capped at 1", () => {
    expect(pageFaultShare([run(250)], 16)).toEqual({ pageFaultShare: 0.4 });
    expect(pageFaultShare([run(250), run(0), run(2000)], 16)).toEqual({ pageFaultShare: 0.4 });
    expect(pageFaultShare([run(2000)], 16)).toEqual({ pageFaultShare: 1 });
    // Without the host's cost, or without a /proc CPU figure (a remote server), there is no share.
    expect(pageFaultShare([run(250)], undefined)).toEqual({});
    expect(pageFaultShare([{ ...run(250), serverSources: { cpu: 'stats', rss: 'stats', lag: 'stats' } }], 16)).toEqual({});
  });

  it('a cell at or over a fifth says so in its notes; under it, nothing', () => {
    const cell = summarizeCell({ runtime: 'node', scenario: 'file', mode: 'sync', path: '/file/sync' }, [run(250), run(260)], {
      connections: 10,
      faultUsPerPage: 16,
    });
    expect(cell.pageFaultShare).toBeCloseTo(0.408, 3);
    expect(cellRemarks(cell)).toContain("⚠ page faults ≈ 41 % of the server's CPU, 255 faults a request");
    const light = summarizeCell({ runtime: 'node', scenario: 'file', mode: 'sync', path: '/file/sync' }, [run(100)], {
      connections: 10,
      faultUsPerPage: 16,
    });
    expect(light.pageFaultShare).toBe(0.16);
    expect(cellRemarks(light).some((r) => r.includes('page faults'))).toBe(false);
  });

  it('--allocator: fresh by default, keep with --keep-freed-memory, the settings for glibc and mimalloc, shipped only on another host', () => {
    expect(parsePlan([]).allocator).toBe('fresh');
    expect(parsePlan(['--keep-freed-memory']).allocator).toBe('keep');
    expect(parsePlan(['--allocator', 'shipped']).allocator).toBe('shipped');
    expect(allocatorEnv('fresh')).toMatchObject({ MALLOC_MMAP_THRESHOLD_: '131072', MIMALLOC_PURGE_DELAY: '0' });
    expect(allocatorEnv('keep')).toMatchObject({
      MALLOC_MMAP_THRESHOLD_: '67108864',
      MALLOC_TRIM_THRESHOLD_: '1073741824',
      MIMALLOC_PURGE_DELAY: '-1',
    });
    expect(allocatorEnv('shipped')).toBeUndefined();
    expect(parsePlan(['--server-host', 'example']).allocator).toBe('shipped');
    expect(() => parsePlan(['--keep-freed-memory', '--server-host', 'example'])).toThrow(/--keep-freed-memory .*not with --server-host/);
    expect(() => parsePlan(['--allocator', 'fresh', '--server-host', 'example'])).toThrow(/--allocator fresh .*not with --server-host/);
    expect(() => parsePlan(['--allocator', 'fresh', '--keep-freed-memory'])).toThrow(/not with --allocator fresh/);
    expect(() => parsePlan(['--allocator', 'tidy'])).toThrow(/--allocator: unknown "tidy"/);
  });

  it('names the allocator state in the parameters, reading older reports by their settings', () => {
    expect(allocatorOf({})).toBe('shipped');
    expect(allocatorOf({ serverEnv: { MALLOC_MMAP_THRESHOLD_: '67108864' } })).toBe('keep');
    expect(allocatorText({ allocator: 'fresh', serverEnv: { ...allocatorEnv('fresh') } })).toMatch(
      /^held fresh: .*--allocator fresh, the default\): MALLOC_MMAP_THRESHOLD_=131072 MIMALLOC_PURGE_DELAY=0/,
    );
    expect(allocatorText({})).toMatch(/^as the runtimes ship/);
  });

  it('the legend of both renderers points to --allocator keep only on a report made without it', () => {
    const fixture = htmlFixtureReport();
    // A cell whose page faults took a large share of its CPU: the Markdown legend lists only the marks its cells carry.
    const shipped: Report = {
      ...fixture,
      results: fixture.results.map((c, i) => (i === 0 ? { ...c, pageFaultShare: 0.4, pageFaultsPerRequest: 900 } : c)),
    };
    const kept: Report = { ...shipped, parameters: { ...shipped.parameters, allocator: 'keep', serverEnv: { ...allocatorEnv('keep') } } };
    const assets = { chartJs: '', errorBarsJs: '' };
    const legendLine = (page: string) => page.split('\n').find((line) => line.includes('⚠ page faults ≈ x %')) ?? '';
    for (const render of [(r: Report) => renderMarkdown(r), (r: Report) => renderHtml(r, assets)]) {
      expect(legendLine(render(shipped))).toContain('--allocator keep');
      expect(legendLine(render(kept))).toContain('page faults');
      expect(legendLine(render(kept))).not.toContain('--allocator keep');
    }
  });
});
