// A/B self-test on a catalogue scenario's own code, side B: kdf.ts with every twentieth request of
// each mode deriving its key twice, 5 % more derivations than A's, on the loop (sync) and on the
// pool (async). The derivation is nearly all of a request's time, so B serves fewer requests/s:
// by how much is what the pairs in docs/ab.md measured, not what the count of derivations says.

import { async as deriveAsync, type KdfInput, sync as deriveSync } from '../../../packages/app/src/scenarios/kdf.ts';

export * from '../../../packages/app/src/scenarios/kdf.ts';
export const name = 'kdf-ab';
export const modes = ['sync', 'async'];

const served = { sync: 0, async: 0 };

export function sync(input: KdfInput): ReturnType<typeof deriveSync> {
  const answer = deriveSync(input);
  served.sync += 1;
  if (served.sync % 20 === 0) deriveSync(input);
  return answer;
}

export async function async(input: KdfInput): ReturnType<typeof deriveAsync> {
  const answer = await deriveAsync(input);
  served.async += 1;
  if (served.async % 20 === 0) await deriveAsync(input);
  return answer;
}
