import { describe, expect, it } from 'vitest';
import { mergeStats, parsePeersLine, parseWorkerReady, peersLine, workerReadyLine, type ProcessStats } from '../src/cluster.ts';

const part = (pid: number, over: Partial<ProcessStats> = {}): ProcessStats => ({
  runtime: 'bun',
  pid,
  since: '2026-11-22T00:00:00.000Z',
  routes: {},
  inFlight: 0,
  eventLoopLagMs: { p50: 1, p99: 2, max: 3, samples: 10 },
  cpuMs: { user: 100, system: 10 },
  rssBytes: 50_000_000,
  ...over,
});

describe('mergeStats', () => {
  it('sums counts, CPU, RSS and in-flight; weights the mean; merges connections; names the leader', () => {
    const merged = mergeStats(7, [
      part(11, { routes: { '/sleep/sync': { count: 30, avgMs: 20, perConnection: { '5001': 30 } } }, inFlight: 1 }),
      part(12, { routes: { '/sleep/sync': { count: 10, avgMs: 40, perConnection: { '5002': 10 } } }, inFlight: 2 }),
    ]);
    expect(merged.pid).toBe(7);
    expect(merged.routes['/sleep/sync']).toEqual({ count: 40, avgMs: 25, perConnection: { '5001': 30, '5002': 10 } });
    expect(merged.inFlight).toBe(3);
    expect(merged.cpuMs).toEqual({ user: 200, system: 20 });
    expect(merged.rssBytes).toBe(100_000_000);
    expect(merged.processes.map((p) => [p.pid, p.requests])).toEqual([
      [11, 30],
      [12, 10],
    ]);
  });

  it('reports the worst process loop lag (percentiles cannot be added) and keeps each one', () => {
    const merged = mergeStats(7, [part(11), part(12, { eventLoopLagMs: { p50: 5, p99: 60, max: 61, samples: 4 } })]);
    expect(merged.eventLoopLagMs).toEqual({ p50: 5, p99: 60, max: 61, samples: 14 });
    expect(merged.processes[1]?.eventLoopLagMs.p99).toBe(60);
  });

  it('takes the oldest reset as the start of the merged counts', () => {
    const merged = mergeStats(7, [part(11, { since: '2026-11-22T00:00:02.000Z' }), part(12, { since: '2026-11-22T00:00:01.000Z' })]);
    expect(merged.since).toBe('2026-11-22T00:00:01.000Z');
  });
});

describe('supervisor protocol lines', () => {
  it('round-trip, and anything else is not taken for them', () => {
    expect(parseWorkerReady(workerReadyLine(5, 'http://127.0.0.1:1', 'http://127.0.0.1:2'))).toEqual({
      pid: 5,
      url: 'http://127.0.0.1:1',
      controlUrl: 'http://127.0.0.1:2',
    });
    expect(parsePeersLine(peersLine([{ pid: 5, controlUrl: 'http://127.0.0.1:2' }]))).toEqual([
      { pid: 5, controlUrl: 'http://127.0.0.1:2' },
    ]);
    expect(parseWorkerReady('ready http://x runtime=bun')).toBeUndefined();
    expect(parsePeersLine('peers {oops')).toBeUndefined();
  });
});
