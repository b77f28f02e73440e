import { describe, expect, it } from 'vitest';
import { cellFlags } from '../src/bench/cell-status.ts';
import { flagLabel } from '../src/report/flags.ts';
import {
  canSetP99,
  cellCensoredLatency,
  cellUnanswered,
  censoredLatency,
  latencyCensoredReason,
  LITTLE_RATIO_MIN,
  littlesLaw,
  nearestRank,
  runLatencyCheck,
  shownP99,
} from '../src/stats/littles-law.ts';
import { unansweredAt } from '../src/load/autocannon.ts';
import { summarizeCell } from '../src/bench/cell.ts';
import type { RunResult } from '../src/model/cell.ts';
import { mergeReport } from '../src/report/merge.ts';
import { loadChartAssets } from '../src/present/html-assets.ts';
import { renderHtml } from '../src/report/render/html.ts';
import { renderConsoleSummary } from '../src/report/render/console.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { environment, makeCell, makeRun, parameters, runtimes } from './fixtures.ts';

const fmt = (ms: number) => ms.toFixed(0);

/**
 * A FIFO closed loop of `connections` on a serial server of `serviceMs`, started empty and run for
 * `runMs`: the first cycle's requests wait 1..N service times, later ones N. The run's figures as
 * bench/measure.ts would record them.
 */
function closedLoopRun(connections: number, serviceMs: number, runMs: number): RunResult {
  const answeredMs: number[] = [];
  const sentAt = new Array<number>(connections).fill(0);
  const answeredAt: number[] = [];
  for (let t = serviceMs, i = 0; t <= runMs; t += serviceMs, i++) {
    const c = i % connections;
    answeredMs.push(t - sentAt[c]!);
    answeredAt.push(t);
    sentAt[c] = t;
  }
  const ages = sentAt.map((s) => runMs - s);
  const sorted = [...answeredMs].sort((a, b) => a - b);
  const requestsPerSec = (answeredMs.length / runMs) * 1000;
  const check = runLatencyCheck(
    {
      requestsPerSec,
      meanLatencyMs: answeredMs.reduce((a, b) => a + b, 0) / answeredMs.length,
      answeredMs,
      unanswered: { count: connections, agesMs: ages },
    },
    connections,
  );
  return makeRun({
    requestsPerSec,
    requests: answeredMs.length,
    sent: answeredMs.length + connections,
    latencyMs: {
      p50: nearestRank(sorted, 0.5),
      p90: nearestRank(sorted, 0.9),
      p99: nearestRank(sorted, 0.99),
      p999: nearestRank(sorted, 0.999),
      max: sorted.at(-1)!,
    },
    ...check,
  });
}

describe("Little's law", () => {
  it('expects W = connections / requests-per-s', () => {
    // The case: 1,000 in the system at 42 req/s spend about 24 s there.
    const l = littlesLaw(1000, 42, 1200)!;
    expect(l.expectedMeanMs).toBeCloseTo(23_809.5, 0);
    expect(l.ratio).toBeCloseTo(0.05, 2);
    expect(littlesLaw(10, 0, 5)).toBeUndefined();
  });

  it('reads about 1 in a closed loop that ran many cycles, about 0.5 in one cycle, and far less in a fraction of one', () => {
    // Many cycles: 10 connections, 20 ms service, 10 s (50 cycles of 200 ms).
    expect(closedLoopRun(10, 20, 10_000).littlesLaw!.ratio).toBeGreaterThan(0.95);
    // Exactly one cycle from a cold start: latencies 20..200 ms, mean 110 against W = 200.
    expect(closedLoopRun(10, 20, 200).littlesLaw!.ratio).toBeCloseTo(0.55, 2);
    // The case: 1,000 connections, 20 ms, a 2 s run holds a tenth of one cycle.
    const ratio = closedLoopRun(1000, 20, 2000).littlesLaw!.ratio;
    expect(ratio).toBeLessThan(LITTLE_RATIO_MIN);
    expect(ratio).toBeCloseTo(0.05, 2);
  });
});

describe('censored percentiles', () => {
  it('count unanswered requests at their age and mark the percentiles they reach as lower bounds', () => {
    const answered = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    // Young in-flight requests reach no percentile above them.
    const young = censoredLatency(answered, [5, 45]);
    expect(young.p50).toBe(45);
    expect(young.lowerBound).toEqual(['p50']);
    // Old ones take the top and make it a lower bound.
    const old = censoredLatency(answered, [500, 600, 700]);
    expect(old.p90).toBe(600);
    expect(old.max).toBe(700);
    expect(old.lowerBound).toEqual(['p50', 'p90', 'p99', 'p999', 'max']);
    expect(censoredLatency(answered, []).lowerBound).toEqual([]);
  });

  it('finds the ages of what each connection left in flight from its sends and settlements', () => {
    const inFlight = [
      { sent: 5, settled: 5, lastSentAt: 100 },
      { sent: 5, settled: 4, lastSentAt: 700 },
      { sent: 1, settled: 0, lastSentAt: 0 },
    ];
    expect(unansweredAt(inFlight, 1000)).toEqual([300, 1000]);
  });

  it('says the unanswered can move the p99 only when they are at least 1 % of the requests', () => {
    expect(canSetP99(10, 15_000)).toBe(false);
    expect(canSetP99(10, 1000)).toBe(true);
    expect(canSetP99(0, 0)).toBe(false);
  });
});

describe('the latency-censored flag', () => {
  it("flags the issue's 1,000-connection sleep/sync case with its censored count and says why", () => {
    const runs = [closedLoopRun(1000, 20, 2200), closedLoopRun(1000, 20, 2200)];
    const reason = latencyCensoredReason(runs)!;
    expect(reason).toContain("by Little's law");
    expect(reason).toContain('2,000 of 2,220 requests unanswered');
    expect(reason).toContain('more than answered');
    expect(cellFlags(runs, { connections: 1000, countsAvailable: false })).toContain('latency-censored');
    const cell = summarizeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync', path: '/sleep/sync' }, runs, { connections: 1000 });
    expect(cell.flags).toContain('latency-censored');
    expect(cell.unanswered).toMatchObject({ count: 2000, sent: 2220, agesKnown: true });
    expect(flagLabel('latency-censored', cell)).toBe(`⚠ latency censored: ${reason}`);
    // The p99 shown is the lower bound with the unanswered in, said to be one.
    expect(shownP99(cell, fmt)).toBe('≥ 2200');
    expect(cell.latencyMs.p99).toBeLessThan(2200);
  });

  it('leaves a 10-connection closed loop of one or more cycles unflagged, and its p99 as measured', () => {
    for (const runMs of [200, 400, 1000]) {
      const runs = [closedLoopRun(10, 20, runMs), closedLoopRun(10, 20, runMs)];
      expect(latencyCensoredReason(runs), `${runMs} ms`).toBeUndefined();
      const cell = summarizeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync', path: '/sleep/sync' }, runs, { connections: 10 });
      expect(cell.flags).not.toContain('latency-censored');
      expect(cell.littlesLaw!.ratio).toBeGreaterThan(0.5);
    }
  });

  it('flags a run whose unanswered requests lift its p99 by more than half', () => {
    // 100 answered at 10 ms, 5 left in flight for 100 ms (a stalled connection each).
    const answeredMs = new Array<number>(100).fill(10);
    const check = runLatencyCheck(
      { requestsPerSec: 1000, meanLatencyMs: 10, answeredMs, unanswered: { count: 5, agesMs: [100, 100, 100, 100, 100] } },
      10,
    );
    const run = makeRun({
      requests: 100,
      sent: 105,
      requestsPerSec: 1000,
      latencyMs: { p50: 10, p90: 10, p99: 10, p999: 10, max: 10 },
      ...check,
    });
    expect(latencyCensoredReason([run])).toContain('they set the p99');
    expect(cellCensoredLatency([run])!.p99).toBe(100);
    expect(cellUnanswered([run])!.oldestMs).toBe(100);
  });

  it('knows the count, not the ages, with autocannon worker threads', () => {
    const check = runLatencyCheck({ requestsPerSec: 100, meanLatencyMs: 90, unanswered: { count: 10 } }, 10);
    expect(check.unanswered).toEqual({ count: 10, agesKnown: false });
    expect(check.latencyWithUnansweredMs).toBeUndefined();
    expect(check.littlesLaw!.ratio).toBeCloseTo(0.9, 3);
  });
});

describe('rendering', () => {
  it('says why a cell is latency-censored and shows its p99 as a lower bound in Markdown, HTML and the console', () => {
    const runs = [closedLoopRun(1000, 20, 2200)];
    const censored = summarizeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync', path: '/sleep/sync' }, runs, { connections: 1000 });
    const fine = makeCell({ runtime: 'node', scenario: 'sleep', mode: 'async' }, { rps: 400, p99: 25 });
    const report = mergeReport({
      createdAt: '2026-11-23T19:00:00.000Z',
      status: 'complete',
      environment,
      parameters,
      runtimes,
      results: [censored, fine],
    });
    for (const [name, text] of [
      ['markdown', renderMarkdown(report)],
      ['console', renderConsoleSummary(report)],
      ['html', renderHtml(report, loadChartAssets())],
    ] as const) {
      // Each names a kind of note once, below its table, with the cell's own words.
      const expected = name === 'console' ? `node sleep sync (${censored.latencyCensored!})` : `node sync (${censored.latencyCensored!})`;
      // The console wraps at its width: read it as one line.
      const read = name === 'console' ? text.replace(/\s+/g, ' ') : text;
      expect(read, name).toContain(name === 'html' ? expected.replaceAll("'", '&#39;') : expected);
      expect(text, name).toContain('≥ 2200');
    }
    expect(censored.status).toBe('ok');
    expect(fine.flags).toEqual([]);
  });
});
