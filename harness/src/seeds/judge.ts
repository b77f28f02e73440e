// From what a replay measured to a claims-table row: ratio with its interval, verdict, and one
// sentence of why drawn from the measurements themselves. Pure.
import { median } from '../stats/stats.ts';
import { CLAIMS, type Claim, type ClaimId } from './claims.ts';
import type { Measured } from './replay-shape.ts';
import { pairedRatios, summarizeRatio, verdict, WIDE_INTERVAL, type RatioSummary, type Verdict } from './verdict.ts';

export interface ClaimRow extends Measured {
  claimed: number;
  overMedian: number | undefined;
  baseMedian: number | undefined;
  ratio: RatioSummary | undefined;
  /** measured median ratio / claimed ratio. */
  ofClaim: number | undefined;
  verdict: Verdict;
  why: string;
}

const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const num = (v: number | string | undefined) => (typeof v === 'number' ? v : Number.NaN);

function explain(claim: Claim, m: Measured, r: RatioSummary, cores: number): string {
  const ratio = f(r.median);
  const o = median(m.over);
  const b = median(m.base);
  const d = m.detail;
  switch (claim.id as ClaimId) {
    case '000-bcrypt':
      return `one hash holds the loop ~${f(1000 / b, 0)} ms in sync; async spreads hashes over bcrypt's 4 pool threads but only ${cores} cores run them, so async reached ${ratio}x (ceiling ~${cores}x here), against the source's 2.29x`;
    case '001-file-warm':
    case '001-file-cold': {
      const [syncMs, asyncMs] = [num(d.syncAvgMs), num(d.asyncAvgMs)];
      const reads = (o + b) / 2;
      const evicted = `files evicted (${String(d.evictedWith)}) before each endpoint`;
      // A short load (--quick) reads fewer files than there are: most reads are then the cold ones.
      const cache =
        d.cache !== 'cold'
          ? 'every file in the page cache'
          : reads < num(d.files)
            ? `${evicted}: ~${f(reads, 0)} reads of ${num(d.files)} files at random per endpoint, so most were cold`
            : `${evicted}, but each of the ${num(d.files)} files was read ~${f(reads / num(d.files), 0)} times per endpoint, so only its first read was cold`;
      return `${cache}; a 5 MiB read held the loop ${f(syncMs)} ms sync (so at most ~${f(1000 / syncMs, 0)} req/s), while async handlers took ${f(asyncMs)} ms each, 10 in flight sharing the pool's threads on ${cores} cores: async/sync = ${ratio}, not 8.6x`;
    }
    case '003-static':
      return `without keep-alive each of the 1,000 requests sets up a connection (mean connect ${f(num(d.syncConnectMs), 0)} ms sync, ${f(num(d.asyncConnectMs), 0)} ms async, of ${f(num(d.syncTotalMs), 0)} / ${f(num(d.asyncTotalMs), 0)} ms total): the small read is a minor part of each request, so async/sync = ${ratio}`;
    case '002-async-fib':
      return `async all the way down makes ~22k promises per fib(20) on one thread: ${f(o)} ms vs ${f(b, 3)} ms per request (${f(r.median, 0)}x slower): no parallelism on a server either`;
    case '002-busy-fib':
      return `the busy loop takes ${f(b)} ms of the request; async all the way down adds ${f(o - b)} ms (${f(((o - b) / b) * 100, 1)} %)`;
    case '002-memo-fib':
      return `stored only after the await, the memo is never hit (the whole call tree starts before any await settles): ${f(o)} ms vs ${f(b)} ms for async plain; memoising the promise instead takes ${f(num(d.promiseMemoMs), 3)} ms, sync memo ${f(num(d.memoSyncMs), 3)} ms`;
  }
}

/** Why an interval wider than WIDE_INTERVAL gave the verdict it gave: too wide to tell, or wide but still clear of the claim. */
function wideNote(r: RatioSummary, v: Verdict): string {
  if (r.ci95[1] / r.ci95[0] <= WIDE_INTERVAL) return '';
  const interval = `the runs disagree (interval ${f(r.ci95[0])} to ${f(r.ci95[1])})`;
  return v === 'inconclusive'
    ? `; ${interval}, too wide to confirm or refute the claim`
    : `; ${interval}, yet the claimed figure lies outside it`;
}

export function judge(m: Measured, cores: number): ClaimRow {
  const claim = CLAIMS.find((c) => c.id === m.claim);
  if (claim === undefined) throw new Error(`unknown claim ${m.claim}`);
  const ratio = m.status === 'ok' ? summarizeRatio(pairedRatios(m.over, m.base)) : undefined;
  const v = verdict(claim.claimed, ratio);
  return {
    ...m,
    claimed: claim.claimed,
    overMedian: m.over.length > 0 ? median(m.over) : undefined,
    baseMedian: m.base.length > 0 ? median(m.base) : undefined,
    ratio,
    ofClaim: ratio === undefined ? undefined : ratio.median / claim.claimed,
    verdict: v,
    why:
      m.status !== 'ok'
        ? `${m.status}: ${m.reason ?? ''}`
        : ratio === undefined
          ? 'no run could carry a ratio'
          : explain(claim, m, ratio, cores) + wideNote(ratio, v),
  };
}
