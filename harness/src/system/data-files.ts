import { closeSync, fsyncSync, openSync, readSync } from 'node:fs';
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
  log(
    `input files written out to disk in ${((performance.now() - started) / 1000).toFixed(1)} s (fsync), so their writeback does not run during the first cells`,
  );
  return manifest;
}

/**
 * Waits until freshly written files are on disk: right after 500 MB are generated
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

/**
 * Reads the files through once, so their pages are in the page cache before they are measured
 * warm: a VM's memory reclaim may page out file pages left idle for a minute (this machine's
 * DAMON "pageout" scheme does), and the first runtime's first file run would then read from disk.
 */
export function primeFiles(paths: readonly string[]): void {
  const buffer = Buffer.allocUnsafe(1 << 20);
  for (const path of paths) {
    const fd = openSync(path, 'r');
    try {
      while (readSync(fd, buffer, 0, buffer.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
}
