// A/B self-test on the file scenario's own code, side B: file.ts with every twentieth request
// reading (and summing) one more file picked at random, 5 % more reads than A's. Reading is nearly
// all of a request's time, so B serves about 5 % fewer requests/s.

import { sync as readOnce } from '../../../packages/app/src/scenarios/file.ts';

export * from '../../../packages/app/src/scenarios/file.ts';
export const name = 'file-ab';
export const modes = ['sync'];

let served = 0;

export function sync(read: Parameters<typeof readOnce>[0]): ReturnType<typeof readOnce> {
  const answer = readOnce(read);
  served += 1;
  if (served % 20 === 0) readOnce(read);
  return answer;
}
