import { describe, expect, it } from 'vitest';
import { type CellMeta, failedCell, summarizeCell } from '../src/bench/cell.ts';
import { makeRun } from './fixtures.ts';

const meta: CellMeta = { runtime: 'node', scenario: 'hash', mode: 'sync', path: '/hash/sync' };

const runs = [
  makeRun({
    requestsPerSec: 980,
    latencyMs: { p50: 5, p90: 9, p99: 14, p999: 22, max: 40 },
    probeLatencyMs: { p50: 1, p99: 3, max: 5, count: 100 },
    eventLoopLagMs: { p99: 2, max: 6 },
    server: { cpuPercent: 99, rssMB: 81 },
    client: { cpuPercent: 40 },
  }),
  makeRun({
    requestsPerSec: 1000,
    latencyMs: { p50: 4, p90: 8, p99: 12, p999: 20, max: 30 },
    probeLatencyMs: { p50: 2, p99: 2, max: 4, count: 100 },
    eventLoopLagMs: { p99: 1, max: 3 },
    server: { cpuPercent: 100, rssMB: 80 },
    client: { cpuPercent: 45 },
  }),
  makeRun({
    requestsPerSec: 1020,
    latencyMs: { p50: 6, p90: 7, p99: 10, p999: 25, max: 35 },
    probeLatencyMs: { p50: 3, p99: 4, max: 9, count: 100 },
    eventLoopLagMs: { p99: 3, max: 4 },
    server: { cpuPercent: 98, rssMB: 90 },
    client: { cpuPercent: 50 },
  }),
];

describe('summarizeCell', () => {
  const cell = summarizeCell(meta, runs, { connections: 100 });

  it('keeps the identity of the cell', () => {
    expect(cell).toMatchObject(meta);
  });

  it('summarises requests/s across runs', () => {
    expect(cell.requestsPerSec.median).toBe(1000);
    expect(cell.requestsPerSec.runs).toEqual([980, 1000, 1020]);
    expect(cell.requestsPerSec.cv).toBe(0.02);
  });

  it('takes the median of each per-run figure independently', () => {
    expect(cell.latencyMs).toEqual({ p50: 5, p90: 8, p99: 12, p999: 22, max: 35 });
    expect(cell.probeLatencyMs).toEqual({ p50: 2, p99: 3, max: 5 });
    expect(cell.eventLoopLagMs).toEqual({ p99: 2, max: 4 });
    expect(cell.server).toEqual({ cpuPercent: 99, rssMB: 81 });
    expect(cell.client).toEqual({ cpuPercent: 45 });
  });

  it('is ok with no flags for clean, steady runs', () => {
    expect(cell.status).toBe('ok');
    expect(cell.flags).toEqual([]);
    expect(cell.reason).toBeUndefined();
    expect(cell.runDetails).toEqual(runs);
  });

  it('sums failures across runs and turns invalid', () => {
    const bad = summarizeCell(meta, [makeRun({ errors: 2 }), makeRun({ non2xx: 4 })], { connections: 100 });
    expect([bad.errors, bad.timeouts, bad.non2xx]).toEqual([2, 0, 4]);
    expect(bad.status).toBe('invalid');
    expect(bad.reason).toBe('2 errors, 4 non-2xx over 2 runs');
  });

  it('measures an overloaded cell: timeouts and errors as shares of what was sent', () => {
    const runs = [makeRun({ requests: 100, sent: 1100, timeouts: 900, errors: 100 }), makeRun({ requests: 50, sent: 950, timeouts: 900 })];
    const cell = summarizeCell(meta, runs, { connections: 1000, timeoutSec: 10 });
    expect(cell.status).toBe('ok');
    expect(cell.flags).toContain('overloaded');
    expect(cell.overload).toEqual({ sent: 2050, timeouts: 1800, errors: 100, timeoutShare: 0.878049, errorShare: 0.04878, timeoutSec: 10 });
  });

  it('still calls an overloaded cell invalid when an answer was not 2xx', () => {
    const cell = summarizeCell(meta, [makeRun({ timeouts: 3 }), makeRun({ non2xx: 4 })], { connections: 100 });
    expect(cell.status).toBe('invalid');
    expect(cell.reason).toBe('4 non-2xx over 2 runs');
  });

  it('never reports a missing loop lag as zero lag', () => {
    const missing = 'about 900 requests in hand: more than the 15 s drain cap';
    const some = summarizeCell(meta, [makeRun({ statsMissing: missing }), makeRun({ eventLoopLagMs: { p99: 40, max: 90 } })], {
      connections: 10,
    });
    expect(some.eventLoopLagMs).toEqual({ p99: 40, max: 90 });
    expect(some.lagMissing).toBeUndefined();
    const none = summarizeCell(meta, [makeRun({ statsMissing: missing })], { connections: 10 });
    expect(none.lagMissing).toBe(missing);
  });

  it('is invalid when validation failed', () => {
    const bad = summarizeCell(meta, runs, { connections: 100, validationError: 'wrong checksum' });
    expect(bad.status).toBe('invalid');
    expect(bad.reason).toBe('validation failed: wrong checksum');
  });

  it('flags a client-bound cell', () => {
    const busy = summarizeCell(meta, [makeRun({ client: { cpuPercent: 95 } })], { connections: 100 });
    expect(busy.flags).toEqual(['client-bound']);
    expect(busy.status).toBe('ok');
  });

  it('checks counts against the connections, except on the raw server which has no /stats', () => {
    const off = [makeRun({ serverCount: 0, clientCount: 500 })];
    expect(summarizeCell(meta, off, { connections: 100 }).flags).toEqual(['count-mismatch']);
    expect(summarizeCell({ ...meta, mode: 'raw' }, off, { connections: 100 }).flags).toEqual([]);
    expect(summarizeCell(meta, off, { connections: 100, countsAvailable: false }).flags).toEqual([]);
  });
});

describe('failedCell', () => {
  it('is failed, with zeros and the reason', () => {
    const cell = failedCell(meta, 'server exited with code 1');
    expect(cell.status).toBe('failed');
    expect(cell.reason).toBe('server exited with code 1');
    expect(cell.flags).toEqual([]);
    expect(cell.requestsPerSec).toEqual({ median: 0, ci95: [0, 0], cv: 0, runs: [], intervalNote: 'no runs' });
    expect(cell.latencyMs).toEqual({ p50: 0, p90: 0, p99: 0, p999: 0, max: 0 });
    expect(cell.errors + cell.timeouts + cell.non2xx).toBe(0);
    expect(cell.runDetails).toEqual([]);
    expect(cell.path).toBe('/hash/sync');
  });
});
