/**
 * Where a bench run's wall time went: each moment is charged to the phase the run was in
 * (the last one announced), so the buckets add up to the whole run. It answers "why did
 * --quick take 90 s?" with figures instead of guesses, and the report keeps them.
 */
import type { Timing } from '../model/report.ts';

/** The phases a cell goes through, as announced to onPhase ("run 2/3" is a "run"). */
export type PhaseKind = 'setup' | 'check' | 'warm-up' | 'run' | 'cross-check' | 'restart' | 'profile' | 'other';

export function phaseKind(phase: string): PhaseKind {
  if (phase.startsWith('run')) return 'run';
  if (phase.startsWith('check')) return 'check';
  if (phase.startsWith('warm-up')) return 'warm-up';
  if (phase.startsWith('cross-check')) return 'cross-check';
  if (phase.startsWith('restart')) return 'restart';
  return 'other';
}

export interface PhaseClock {
  /** From now on, time is charged to this phase. */
  enter(kind: PhaseKind): void;
  /** The buckets so far, in seconds (rounded to 0.1 s), and the wall time since the clock started. */
  read(): Timing;
}

export function createPhaseClock(now: () => number = () => performance.now()): PhaseClock {
  const started = now();
  const spent = new Map<PhaseKind, number>();
  let current: PhaseKind = 'setup';
  let since = started;
  const charge = (at: number) => {
    spent.set(current, (spent.get(current) ?? 0) + (at - since));
    since = at;
  };
  return {
    enter(kind) {
      charge(now());
      current = kind;
    },
    read() {
      const at = now();
      charge(at);
      const phasesSec: Partial<Record<PhaseKind, number>> = {};
      for (const [kind, ms] of spent) if (ms > 0) phasesSec[kind] = Math.round(ms / 100) / 10;
      return { wallSec: Math.round((at - started) / 100) / 10, phasesSec };
    },
  };
}
