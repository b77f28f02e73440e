// Latency that counts every request sent: a closed loop of more connections
// than a short run can answer leaves most requests queued at its end; the cell says so (flagged
// latency-censored, with its unanswered count) instead of showing the lucky first of the queue as
// its latency. The same scenario at 10 connections turns its queue over many times and is not
// flagged. Node only, one server, about 10 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/bench/plan.ts';
import { LITTLE_RATIO_MIN } from '../../src/stats/littles-law.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { isAlive, processesMentioning, recordingProgress } from './helpers.ts';
import { benchRun } from './bench-run.ts';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-little-'));
});
afterEach(() => stopAllServers());
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("Little's law on sleep/sync", () => {
  it('flags 500 connections on a 5 ms blocking wait with its unanswered count, not 10 connections', { timeout: 90_000 }, async () => {
    // 5 ms a request, one at a time: at most 200 answers a second. 500 connections make W = 2.5 s,
    // more than the 1 s run: most requests sent are still queued at its end. 10 make W = 50 ms,
    // twenty turns of the queue in the run. The timeout (10 s) is past both, so nothing times out.
    // --quick for its lighter host check: the flags after it set the runs.
    const plan = parsePlan([
      ...['--runtimes', 'node', '--scenarios', 'sleep', '--modes', 'sync', '--sleep-ms', '5', '--connections', '10,500'],
      ...['--quick', '--duration', '1', '--runs', '1', '--warmup', '0.2', '--timeout', '10', '--cross-check', 'none'],
      ...['--out', join(tmp, 'out'), '--data-dir', join(tmp, 'data'), '--file-count', '2', '--file-size', '4096'],
    ]);
    const { report } = await benchRun(plan, { progress: recordingProgress() });
    const at = (connections: number) => {
      const cell = report.results.find((c) => c.connections === connections);
      if (cell === undefined) throw new Error(`no cell at ${connections} connections`);
      expect(cell.status, cell.reason).toBe('ok');
      return cell;
    };

    const few = at(10);
    expect(few.flags).not.toContain('latency-censored');
    // Physics: a closed loop that turned over many times has its answered mean near W = N / X
    // (0.9 to 1.0 measured; generous bounds, the machine is shared).
    expect(few.littlesLaw!.ratio).toBeGreaterThan(0.6);
    expect(few.littlesLaw!.ratio).toBeLessThan(1.5);
    // One request in flight per connection when the run stops, none older than a few turns.
    expect(few.unanswered).toMatchObject({ count: 10, agesKnown: true });

    const many = at(500);
    expect(many.flags).toContain('latency-censored');
    // Every connection still had its request in flight: most of those sent were never answered.
    expect(many.unanswered).toMatchObject({ count: 500, agesKnown: true });
    expect(many.unanswered!.count).toBeGreaterThan(many.runDetails[0]!.requests);
    expect(many.littlesLaw!.ratio).toBeLessThan(LITTLE_RATIO_MIN);
    expect(many.latencyCensored).toContain('500 of ');
    expect(many.latencyCensored).toContain("Little's law");
    // The p99 with them in is a lower bound, at least as high as the answered p99.
    expect(many.latencyWithUnansweredMs!.lowerBound).toContain('p99');
    expect(many.latencyWithUnansweredMs!.p99).toBeGreaterThanOrEqual(many.latencyMs.p99 * 0.99);
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
  });
});
