// A/B self-test on the sleep scenario's own code, side A: packages/app/src/scenarios/sleep.ts as it
// is, a 20 ms Atomics.wait on the loop, under another name (a module cannot take a built-in
// scenario's name). sleep-5pct.ts waits 5 % longer:
// `pnpm bench:ab --a file:docs/examples/ab/sleep.ts --b file:docs/examples/ab/sleep-5pct.ts` (docs/ab.md).

export * from '../../../packages/app/src/scenarios/sleep.ts';
export const name = 'sleep-ab';
export const modes = ['sync'];
