// A/B self-test on the hash scenario's own code, side B: hash.ts with one more bcrypt hash at
// cost - 4 after four requests in every five. Each step of cost doubles bcrypt's work, so one such
// hash is 1/16 of a request's, and four in five of them are 5 % more in all; bcrypt is nearly all
// of a request's time, so B serves about 5 % fewer requests/s.

import { sync as hashOnce } from '../../../packages/app/src/scenarios/hash.ts';

export * from '../../../packages/app/src/scenarios/hash.ts';
export const name = 'hash-ab';
export const modes = ['sync'];

let served = 0;

export function sync(job: { cost: number }): ReturnType<typeof hashOnce> {
  const answer = hashOnce(job);
  served += 1;
  if (served % 5 !== 0) hashOnce({ cost: job.cost - 4 });
  return answer;
}
