// A/B self-test on the fib scenario's work, side A: fib(28) by plain recursion on the loop, as the
// fib scenario's sync mode computes it (packages/app/src/scenarios/fib.ts). A module cannot take a
// built-in scenario's name, so this one is `fib28`. fib-5pct.ts is the same with fib(22) on top,
// about 5.6 % more calls: about 5 % fewer requests/s for
// `pnpm bench:ab --a file:docs/examples/ab/fib.ts --b file:docs/examples/ab/fib-5pct.ts` to find
// (docs/ab.md).

export const name = 'fib28';
export const description = 'fib(28) by plain recursion on the loop: the fib scenario’s work, for the A/B self-test';
export const modes = ['sync'];

function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

export function sync(): { n: number; value: number } {
  return { n: 28, value: fib(28) };
}
