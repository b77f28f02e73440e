// Instruction-count self-test, side B: fib22.ts with fib(12) and fib(10) computed on top, 642 more
// calls on top of 57,313: about 1 % more instructions per request once the HTTP work is counted
// too (docs/instructions.md).

export const name = 'fib22';
export const description = 'fib(22) by plain recursion on the loop: the instruction-count self-test';
export const modes = ['sync'];

function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

export function sync(): { n: number; value: number } {
  // `* 0` keeps the extra recursion observable but out of the answer, which must match A's.
  return { n: 22, value: fib(22) + fib(12) * 0 + fib(10) * 0 };
}
