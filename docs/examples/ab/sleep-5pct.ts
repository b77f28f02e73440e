// A/B self-test on the sleep scenario's own code, side B: sleep.ts with each wait 5 % longer (21 ms
// for the default 20). The wait is nearly all of a request's time and holds the loop, so B serves
// about 5 % fewer requests/s. The answer still names the wait asked for, as A's does.

import { sleepSync } from '../../../packages/app/src/workloads/sleep.ts';

export * from '../../../packages/app/src/scenarios/sleep.ts';
export const name = 'sleep-ab';
export const modes = ['sync'];

export function sync({ ms }: { ms: number }): { ms: number } {
  sleepSync(ms * 1.05);
  return { ms };
}
