// A/B self-test on the hash scenario's own code, side A: packages/app/src/scenarios/hash.ts as it
// is, bcrypt's hashSync at the run's cost (10) on the loop, under another name (a module cannot
// take a built-in scenario's name). hash-5pct.ts does 5 % more bcrypt work:
// `pnpm bench:ab --a file:docs/examples/ab/hash.ts --b file:docs/examples/ab/hash-5pct.ts` (docs/ab.md).

export * from '../../../packages/app/src/scenarios/hash.ts';
export const name = 'hash-ab';
export const modes = ['sync'];
