import { closeSync, fsyncSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  const manifest = generateDataFiles(dir, count, sizeBytes);
  const started = performance.now();
  settleFiles(manifest.files.map((f) => join(dir, f.name)));
  log(`input files written out to disk in ${((performance.now() - started) / 1000).toFixed(1)} s (fsync), so their writeback does not run during the first cells`);
  return manifest;
}

/**
 * Waits until freshly written files are on disk (issue 22): right after 500 MB are generated
 * the kernel still holds them as dirty pages and writes them back over the next seconds (in
 * docs/methodology.md: how many MB, how long), taking CPU and I/O from the first cells measured.
 */
export function settleFiles(paths: readonly string[]): void {
  for (const path of paths) {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
