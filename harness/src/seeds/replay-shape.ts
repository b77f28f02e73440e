import type { Manifest, RuntimeName } from '@bench/app';
import type { ClaimId } from './claims.ts';

export interface ReplayShape {
  runs: number;
  /** 000: ab -k -c 20 -n this. */
  hashRequests: number;
  /** 001: autocannon run length per endpoint (its default is 10 s). */
  fileDurationSec: number;
  /** 003: ab -n this -c this, no keep-alive. */
  staticRequests: number;
  /** 002: sequential requests per variant and run. */
  fibRequests: number;
  timeoutSec: number;
}

export const FULL_SHAPE: ReplayShape = {
  runs: 3,
  hashRequests: 250,
  fileDurationSec: 10,
  staticRequests: 1000,
  fibRequests: 10,
  timeoutSec: 60,
};
/** --quick: every claim, fewer requests; 003 keeps its 1,000 connections, it is fast. */
export const QUICK_SHAPE: ReplayShape = {
  runs: 2,
  hashRequests: 20,
  fileDurationSec: 0.25,
  staticRequests: 1000,
  fibRequests: 3,
  timeoutSec: 30,
};

/** What one claim's replay measured on one runtime: a figure per run for each side. */
export interface Measured {
  claim: ClaimId;
  runtime: RuntimeName;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  replayedSetup: string;
  unit: string;
  /** The claim's numerator (async, or async memo) and denominator (sync, or async plain), per run. */
  over: number[];
  base: number[];
  overLabel: string;
  baseLabel: string;
  /** Side figures the explanation draws on (ab connect times, handler ms, cache state...). */
  detail: Record<string, number | string>;
}

export interface ReplayContext {
  shape: ReplayShape;
  /** The claims to replay (--claims), in the replay's own order whatever order they were named in. */
  claims: readonly ClaimId[];
  dataDir: string;
  manifest: Manifest;
  staticDir: string;
  staticManifest: Manifest;
  /** Why ab cannot run, when it cannot. */
  abMissing: string | undefined;
  apacheBenchBinary: string;
  signal: AbortSignal;
  progress(line: string): void;
}

export const FIB = { plainN: 20, busyN: 13, busyExp: 6, allTheWay: 32 } as const;

export const FIB_PATHS = {
  plainSync: `/fib/sync?n=${FIB.plainN}&variant=plain`,
  plainAsync: `/fib/async?n=${FIB.plainN}&variant=plain&depth=${FIB.allTheWay}`,
  busySync: `/fib/sync?n=${FIB.busyN}&variant=busy&exp=${FIB.busyExp}`,
  busyAsync: `/fib/async?n=${FIB.busyN}&variant=busy&exp=${FIB.busyExp}&depth=${FIB.allTheWay}`,
  /** Seed 002's asyncMemoFib as written (value stored after the await). */
  memoLateAsync: `/fib/async?n=${FIB.plainN}&variant=memo-late`,
  /** The app's own memo, which stores the promise: what a working async memo costs. */
  memoAsync: `/fib/async?n=${FIB.plainN}&variant=memo`,
  memoSync: `/fib/sync?n=${FIB.plainN}&variant=memo`,
} as const;

export type Json = Record<string, unknown>;
