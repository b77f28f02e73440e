// A/B self-test, side B: checksum.ts with 5 % more rounds (420, not 400). The checksum is nearly all
// of a request's time on Node, so B serves about 5 % fewer requests/s: the change of known size
// that `pnpm bench:ab --a file:docs/examples/ab/checksum.ts --b file:docs/examples/ab/checksum-5pct.ts`
// must find (docs/ab.md).

export const name = 'checksum';
export const description = 'FNV-1a over a 4 KiB buffer, a fixed number of rounds: the A/B self-test';

const ROUNDS = 420;
const buffer = new Uint8Array(4096).map((_, i) => (i * 31) & 0xff);

export function sync(): { rounds: number; hash: number } {
  let hash = 0x811c9dc5;
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < buffer.length; i++) hash = Math.imul(hash ^ (buffer[i] ?? 0), 0x01000193) >>> 0;
  return { rounds: ROUNDS, hash };
}
