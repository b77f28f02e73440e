// A/B self-test on the hash scenario's own code, side B: hash.ts with one more bcrypt hash at
// cost - 4 after each request's own. Each step of cost doubles bcrypt's work, so that is 1/16,
// 6.25 % more; bcrypt is nearly all of a request's time, so B serves about 6 % fewer requests/s.

import { sync as hashOnce } from '../../../packages/app/src/scenarios/hash.ts';

export * from '../../../packages/app/src/scenarios/hash.ts';
export const name = 'hash-ab';
export const modes = ['sync'];

export function sync(job: { cost: number }): ReturnType<typeof hashOnce> {
  const answer = hashOnce(job);
  hashOnce({ cost: job.cost - 4 });
  return answer;
}
