// A/B self-test on the fib scenario's work, side B: fib.ts with fib(22) computed on top of fib(28),
// 5.6 % more calls (fib(22) / fib(28) is about 1 / 17.9); the recursion is nearly all of a
// request's time, so B serves about 5 % fewer requests/s (docs/ab.md).

export const name = 'fib28';
export const description = 'fib(28) by plain recursion on the loop: the fib scenario’s work, for the A/B self-test';
export const modes = ['sync'];

function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

export function sync(): { n: number; value: number } {
  // `* 0` keeps the extra recursion observable but out of the answer, which must match A's.
  return { n: 28, value: fib(28) + fib(22) * 0 };
}
