import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, from this file's place in it (harness/src/system/). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
