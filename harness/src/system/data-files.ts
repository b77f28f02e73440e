import { resolve } from 'node:path';
import { DATA_DEFAULTS, generateDataFiles, hasDataFiles, loadManifest, type Manifest } from '@bench/app';
import { REPO_ROOT } from './paths.ts';

export const DEFAULT_DATA_DIR = resolve(REPO_ROOT, 'data/files');

/** The file scenario's inputs: reused when a complete set of the wanted shape is there, else made. */
export function ensureDataFiles(
  dir: string = DEFAULT_DATA_DIR,
  count: number = DATA_DEFAULTS.count,
  sizeBytes: number = DATA_DEFAULTS.sizeBytes,
  log: (line: string) => void = () => {},
): Manifest {
  if (hasDataFiles(dir, count, sizeBytes)) return loadManifest(dir);
  log(`generating ${count} files of ${sizeBytes} bytes in ${dir}`);
  return generateDataFiles(dir, count, sizeBytes);
}
