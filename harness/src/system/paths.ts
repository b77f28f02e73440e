import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, from this file's place in it (harness/src/system/). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Where a run is written without --out: data/results in a checkout. The installed command
 * (bin/sync-async-bench.mjs) runs from inside node_modules, so it sets BENCH_RESULTS_ROOT to the
 * user's own folder (./bench-results) instead.
 */
export const RESULTS_ROOT =
  process.env.BENCH_RESULTS_ROOT === undefined || process.env.BENCH_RESULTS_ROOT === ''
    ? resolve(REPO_ROOT, 'data/results')
    : resolve(process.env.BENCH_RESULTS_ROOT);

/**
 * A file as a report names it: from the repository's root when it lies inside it (a module under
 * docs/examples reads the same from every checkout), else as given: a user's own file is theirs.
 */
export function reportedPath(path: string): string {
  const inside = relative(REPO_ROOT, path);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}
