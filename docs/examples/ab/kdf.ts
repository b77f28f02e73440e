// A/B self-test on a catalogue scenario's own code, side A: packages/app/src/scenarios/kdf.ts as
// it is (node:crypto's scrypt at logN 13: scryptSync on the loop, scrypt on the runtime's pool),
// under another name (a module cannot take a built-in scenario's name). kdf-5pct.ts derives 5 %
// more keys: `pnpm bench:ab --a file:docs/examples/ab/kdf.ts --b file:docs/examples/ab/kdf-5pct.ts` (docs/ab.md).

export * from '../../../packages/app/src/scenarios/kdf.ts';
export const name = 'kdf-ab';
export const modes = ['sync', 'async'];
