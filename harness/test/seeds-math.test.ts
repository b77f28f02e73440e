// The seeds' arithmetic, the verdict rule and the ab parser, on fixed inputs and on ab reports
// captured from this repository's servers (ab 2.3, Debian 12).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apacheBenchArgs, parseApacheBench } from '../src/seeds/apache-bench.ts';
import { CLAIMS, stats001 } from '../src/seeds/claims.ts';
import { pairedRatios, summarizeRatio, verdict } from '../src/seeds/verdict.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures/ab', name), 'utf8');

describe('seed 001 /stats comparison', () => {
  it('reproduces the published 1.03 % from 52.41 vs 51.87 ms', () => {
    expect(stats001({ count: 218, avgMs: 52.41 }, { count: 1875, avgMs: 51.87 }).asyncFasterAvgTimePercent).toBe(1.03);
  });

  it('gives 760.09 % for the published 218 vs 1,875, and the printed 759.63 % only for 1,874', () => {
    expect(stats001({ count: 218, avgMs: 1 }, { count: 1875, avgMs: 1 }).asyncMoreRequestsPercent).toBe(760.09);
    expect(stats001({ count: 218, avgMs: 1 }, { count: 1874, avgMs: 1 }).asyncMoreRequestsPercent).toBe(759.63);
    // No other way of relating the two printed counts lands on 759.63 either.
    const [s, a] = [218, 1875];
    const candidates = [a / s, (a - s) / s, (a - s) / a, (a - s) / (s + 1), (a - s) / (s - 1), a / (s + 1), (a + 1 - s) / s];
    for (const c of candidates) expect(Math.round(c * 10_000) / 100).not.toBe(759.63);
  });

  it('the claimed ratios follow from the published figures', () => {
    const claimed = Object.fromEntries(CLAIMS.map((c) => [c.id, c.claimed]));
    expect(claimed['000-bcrypt']).toBeCloseTo(2.293, 3);
    expect(claimed['001-file-warm']).toBeCloseTo(8.601, 3);
    expect(claimed['003-static']).toBeCloseTo(1.2656, 4);
    expect(claimed['002-async-fib']).toBeCloseTo(1277.8, 1);
    expect(claimed['002-busy-fib']).toBe(1);
  });
});

describe('verdict rule', () => {
  const runs = (...xs: number[]) => summarizeRatio(xs);

  it('the ratio interval is the t interval of the log-ratios, around the geometric mean', () => {
    const s = runs(2, 2, 2)!;
    expect(s.ci95[0]).toBeCloseTo(2, 12);
    expect(s.ci95[1]).toBeCloseTo(2, 12);
    const t = runs(1, 4)!;
    // mean of logs = ln 2; sd = ln 4 / sqrt 2; t(1) = 12.706; half width = 12.706 * ln 4 / 2.
    expect(Math.log(t.ci95[1]) - Math.log(2)).toBeCloseTo((12.706 * Math.log(4)) / 2, 2);
    expect(t.median).toBe(2.5);
  });

  it('holds when the claimed ratio is inside the interval', () => {
    expect(verdict(2.29, runs(2.0, 2.5, 2.3))).toBe('holds');
    expect(verdict(1, runs(0.98, 1.03, 1.01))).toBe('holds');
  });

  it('partly when the effect has the claimed direction but not its size', () => {
    expect(verdict(2.29, runs(1.4, 1.45, 1.5))).toBe('partly');
    expect(verdict(0.5, runs(0.8, 0.82, 0.81))).toBe('partly');
    expect(verdict(1, runs(1.05, 1.06, 1.07))).toBe('partly');
  });

  it('does not hold when the interval shows no effect or the opposite one', () => {
    expect(verdict(2.29, runs(0.9, 1.1, 1.0))).toBe('does not hold');
    expect(verdict(2.29, runs(0.6, 0.62, 0.61))).toBe('does not hold');
    expect(verdict(1, runs(0.3, 0.31, 0.32))).toBe('does not hold');
  });

  it('inconclusive when the claim is inside an interval too wide to tell; a claim outside a wide one is still judged', () => {
    // Two runs that disagree: 1.2 and 2.0 give an interval of about 0.06 to 44.
    expect(verdict(1.27, runs(1.2, 2.0))).toBe('inconclusive');
    expect(verdict(1, runs(0.8, 1.5))).toBe('inconclusive');
    expect(verdict(8.6, runs(0.9, 1.4, 1.1))).toBe('does not hold');
    expect(verdict(1278, runs(40, 90, 60))).toBe('partly');
    // Just inside 4x: still a verdict.
    const near = summarizeRatio([1.9, 2.0, 2.1]);
    expect(near !== undefined && near.ci95[1] / near.ci95[0] < 4).toBe(true);
    expect(verdict(2, near)).toBe('holds');
  });

  it('no verdict from fewer than two runs or none', () => {
    expect(verdict(2.29, runs(2.29))).toBe('not measured');
    expect(verdict(2.29, undefined)).toBe('not measured');
  });

  it('pairs runs by index and drops a run that cannot carry a ratio', () => {
    expect(pairedRatios([10, 20, 30], [5, 0, 10])).toEqual([2, 3]);
  });
});

describe('parseApacheBench', () => {
  it('reads a keep-alive bcrypt run (the 000 shape)', () => {
    const r = parseApacheBench(fixture('hash-async-k-c20.txt'));
    expect(r).toMatchObject({
      concurrency: 20,
      complete: 60,
      failed: 0,
      keepAliveRequests: 60,
      non2xx: 0,
      requestsPerSec: 6.49,
      timePerRequestMs: 3083.976,
      timeTakenSec: 9.252,
    });
    expect(r.connectMeanMs).toBe(0);
    expect(r.totalMeanMs).toBe(2687);
    expect(r.percentilesMs).toMatchObject({ '50': 2892, '99': 3669, '100': 3669 });
    // ab's own identity: time per request (mean) = concurrency x time taken / requests.
    expect(r.timePerRequestMs).toBeCloseTo((r.concurrency * r.timeTakenSec * 1000) / r.complete, 0);
  });

  it('reads a 1,000-connection run without keep-alive (the 003 shape)', () => {
    const r = parseApacheBench(fixture('file-sync-bytes-c1000.txt'));
    expect(r).toMatchObject({
      concurrency: 1000,
      complete: 1000,
      failed: 0,
      keepAliveRequests: 0,
      requestsPerSec: 1834.09,
      connectMeanMs: 23,
      processingMeanMs: 211,
    });
    expect(r.percentilesMs['50']).toBe(248);
    expect(r.requestsPerSec).toBeCloseTo(r.complete / r.timeTakenSec, -1);
  });

  it('counts non-2xx answers, which ab lists as complete', () => {
    expect(parseApacheBench(fixture('fib-400.txt'))).toMatchObject({ complete: 5, non2xx: 5, failed: 0 });
  });

  it("throws with ab's last words when there is no report", () => {
    expect(() => parseApacheBench('ab: invalid URL\nUsage: ab [options] [http[s]://]hostname[:port]/path')).toThrow(
      /ab printed no report: ab: invalid URL/,
    );
  });

  it("builds the seeds' command lines", () => {
    expect(apacheBenchArgs({ url: 'http://h/x', requests: 250, concurrency: 20, keepAlive: true, timeoutSec: 30 })).toEqual([
      '-k',
      '-c',
      '20',
      '-n',
      '250',
      '-s',
      '30',
      '-r',
      'http://h/x',
    ]);
    expect(apacheBenchArgs({ url: 'http://h/x', requests: 1000, concurrency: 1000, keepAlive: false, timeoutSec: 30 })).not.toContain('-k');
  });
});
