// Seed 004: a blocking wait (a synchronous call that holds the thread) against a timer.
import { BOUNDS } from '../config.ts';
import { intParam } from '../params.ts';
import type { ScenarioMode, ScenarioSettings } from '../scenario-contract.ts';
import { sleepAsync, sleepSync } from '../workloads/sleep.ts';

export const name = 'sleep';
export const description = 'a wait: Atomics.wait on the thread against a timer';
export const order = 4;
/** A blocked worker thread only moves the wait elsewhere: measured when asked (--modes worker). */
export const modes = ['sync', 'async'] as const;

interface Wait {
  ms: number;
}

export function input(query: URLSearchParams, settings: ScenarioSettings): Wait {
  return { ms: intParam(query.getAll('ms'), 'ms', settings.sleepMs, BOUNDS.sleepMs) };
}

export function sync({ ms }: Wait): Wait {
  sleepSync(ms);
  return { ms };
}

export async function async({ ms }: Wait): Promise<Wait> {
  await sleepAsync(ms);
  return { ms };
}

export function respond(answer: Wait, _input: Wait, mode: ScenarioMode) {
  return { ...answer, mode };
}
