// Instruction-count self-test, side A: fib(22) by plain recursion on the loop, a request of a few
// million instructions. fib22-1pct.ts does about 1 % more work per request (whole request,
// HTTP included): `pnpm bench:ab --measure instructions --a file:docs/examples/instructions/fib22.ts
// --b file:docs/examples/instructions/fib22-1pct.ts --runtimes node` (docs/instructions.md).

export const name = 'fib22';
export const description = 'fib(22) by plain recursion on the loop: the instruction-count self-test';
export const modes = ['sync'];

function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

export function sync(): { n: number; value: number } {
  return { n: 22, value: fib(22) };
}
