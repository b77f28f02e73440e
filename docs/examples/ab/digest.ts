// A/B self-test for a module of your own, side A: a fixed amount of CPU work per request, large
// enough to be nearly all of one (FNV-1a over a 4 KiB buffer, 2,000 times: about 10 ms on Node
// here, against about 0.25 ms of HTTP and the server's own bookkeeping). digest-5pct.ts does 5 %
// more of the same work, so B serves about 5 % fewer requests/s:
// `pnpm bench:ab --a file:docs/examples/ab/digest.ts --b file:docs/examples/ab/digest-5pct.ts` (docs/ab.md).

export const name = 'digest';
export const description = 'FNV-1a over a 4 KiB buffer, 2,000 times a request: the A/B self-test for a module of your own';
export const modes = ['sync'];

const ROUNDS = 2000;
const buffer = new Uint8Array(4096).map((_, i) => (i * 31) & 0xff);

export function sync(): { rounds: number; hash: number } {
  let hash = 0x811c9dc5;
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < buffer.length; i++) hash = Math.imul(hash ^ (buffer[i] ?? 0), 0x01000193) >>> 0;
  return { rounds: ROUNDS, hash };
}
