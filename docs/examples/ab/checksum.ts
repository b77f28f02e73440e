// A/B self-test, side A: a fixed amount of CPU work per request (FNV-1a over a 4 KiB buffer,
// ROUNDS times). checksum-5pct.ts is the same module with 5 % more rounds, about 5 % fewer requests/s: a change of known size
// for `pnpm bench:ab --a file:docs/examples/ab/checksum.ts --b file:docs/examples/ab/checksum-5pct.ts`
// to find (docs/ab.md).

export const name = 'checksum';
export const description = 'FNV-1a over a 4 KiB buffer, a fixed number of rounds: the A/B self-test';

const ROUNDS = 400;
const buffer = new Uint8Array(4096).map((_, i) => (i * 31) & 0xff);

export function sync(): { rounds: number; hash: number } {
  let hash = 0x811c9dc5;
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < buffer.length; i++) hash = Math.imul(hash ^ (buffer[i] ?? 0), 0x01000193) >>> 0;
  return { rounds: ROUNDS, hash };
}
