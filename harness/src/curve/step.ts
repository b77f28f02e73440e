/** One measured step: the generator's figures joined with the server's, and its flags. */
import { clearlyPast, keptUp, meetsTarget } from './ladder.ts';
import type { CurveStep, StepFlag } from './curve-types.ts';
import type { StepMeasurement } from '../load/generator-types.ts';

/**
 * The generator is behind its schedule when its lateness p99 passes 1 ms and is a real part
 * (a tenth) of the step's median latency: on two shared cores a single preemption makes a short
 * step's p99 lateness a few ms, which says nothing about a 300 ms answer but much about a 1 ms one.
 */
export const GENERATOR_LATE_MS = 1;
export const GENERATOR_LATE_SHARE = 0.1;
/** ...or busy this much of a core (its CPU less the estimated spin-waiting). */
export const GENERATOR_BUSY_PERCENT = 90;

export function generatorBound(m: Pick<StepMeasurement, 'latenessMs' | 'busyPercent' | 'latencyMs'>): boolean {
  const lateLimit = Math.max(GENERATOR_LATE_MS, GENERATOR_LATE_SHARE * m.latencyMs.p50);
  return m.latenessMs.p99 > lateLimit || m.busyPercent >= GENERATOR_BUSY_PERCENT;
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The rate the step's schedule actually offered: Poisson arrivals over a short step hold a few
 * per cent more or fewer requests than rate x time (sd 1/sqrt(n): 6 % at 299), so "achieved ≥ 95 %
 * of offered" is held against what was scheduled, or a passing step would fail it by chance.
 */
export function scheduledPerSec(offeredPerSec: number, m: Pick<StepMeasurement, 'scheduled' | 'stoppedAtSec'>): number {
  if (m.stoppedAtSec === undefined || m.stoppedAtSec <= 0 || m.scheduled < 2) return offeredPerSec;
  return m.scheduled / m.stoppedAtSec;
}

export function toStep(
  offeredPerSec: number,
  m: StepMeasurement,
  server: { cpuPercent: number; eventLoopLagMs?: { p99: number; max: number } },
  sloMs: number,
  extra: { capSec?: number; phase?: CurveStep['phase'] } = {},
): CurveStep {
  const keepUpRate = scheduledPerSec(offeredPerSec, m);
  const figures = {
    offeredPerSec: keepUpRate,
    achievedPerSec: m.achievedPerSec,
    p99Ms: m.latencyMs.p99,
    generatorBound: generatorBound(m),
  };
  const flags: StepFlag[] = [
    ...(figures.generatorBound ? (['generator-bound'] as const) : []),
    ...(!keptUp(figures) ? (['saturated'] as const) : []),
    ...(clearlyPast(figures, sloMs) ? (['past-saturation'] as const) : []),
    ...(m.errors + m.timeouts > 0 ? (['errors'] as const) : []),
  ];
  return {
    offeredPerSec,
    achievedPerSec: round(m.achievedPerSec, 2),
    durationSec: m.elapsedSec,
    scheduled: m.scheduled,
    sent: m.sent,
    dropped: m.dropped,
    completed: m.completed,
    errors: m.errors,
    timeouts: m.timeouts,
    latencyMs: m.latencyMs,
    latenessMs: { p50: round(m.latenessMs.p50), p99: round(m.latenessMs.p99), max: round(m.latenessMs.max) },
    generator: { cpuPercent: m.cpuPercent, busyPercent: m.busyPercent },
    server: { cpuPercent: server.cpuPercent },
    ...(server.eventLoopLagMs === undefined ? {} : { eventLoopLagMs: server.eventLoopLagMs }),
    flags,
    // With a decision, passing is the decision's (and keeping up); without one, the old p99 test.
    meetsTarget: m.verdict === undefined ? meetsTarget(figures, sloMs) : m.verdict.outcome === 'pass' && keptUp(figures),
    ...(m.verdict === undefined
      ? {}
      : { decision: { ...m.verdict, stoppedAtSec: m.stoppedAtSec ?? m.elapsedSec, capSec: extra.capSec ?? m.elapsedSec } }),
    ...(extra.phase === undefined ? {} : { phase: extra.phase }),
  };
}
