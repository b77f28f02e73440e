// A/B self-test on the file scenario's own code, side A: packages/app/src/scenarios/file.ts as it
// is, readFileSync of a generated file picked at random and its checksum, on the loop, under
// another name (a module cannot take a built-in scenario's name). file-5pct.ts reads 5 % more:
// `pnpm bench:ab --a file:docs/examples/ab/file.ts --b file:docs/examples/ab/file-5pct.ts` (docs/ab.md).

export * from '../../../packages/app/src/scenarios/file.ts';
export const name = 'file-ab';
export const modes = ['sync'];
