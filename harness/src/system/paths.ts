import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, from this file's place in it (harness/src/system/). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * A file as a report names it: from the repository's root when it lies inside it (a module under
 * docs/examples reads the same from every checkout), else as given: a user's own file is theirs.
 */
export function reportedPath(path: string): string {
  const inside = relative(REPO_ROOT, path);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}
