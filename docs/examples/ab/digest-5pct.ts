// A/B self-test for a module of your own, side B: digest.ts, with every twentieth request doing its
// work twice: 5 % more of the very function A runs (one compiled loop, not a second one with
// another bound that the JIT may treat differently). The work is nearly all of a request's time,
// so B serves about 5 % fewer requests/s.

import { sync as digestOnce } from './digest.ts';

export { description, modes, name } from './digest.ts';

let served = 0;

export function sync(): ReturnType<typeof digestOnce> {
  const answer = digestOnce();
  served += 1;
  if (served % 20 === 0) digestOnce();
  return answer;
}
