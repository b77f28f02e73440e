import { randomFillSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKSUM_KIND, checksum32 } from './checksum.ts';

/** Defaults as in the Bun file-read benchmark: 100 unique files of 5 MB. */
export const DATA_DEFAULTS = { count: 100, sizeBytes: 5 * 1024 * 1024 } as const;

export interface DataFile {
  name: string;
  bytes: number;
  checksum: string;
}

export interface Manifest {
  count: number;
  sizeBytes: number;
  /** How `files[].checksum` was computed (workloads/checksum.ts); absent in manifests of older versions. */
  checksums?: typeof CHECKSUM_KIND;
  files: DataFile[];
}

const MANIFEST = 'manifest.json';

/** Writes `count` files of random bytes and a manifest with each size and checksum. */
export function generateDataFiles(dir: string, count: number, sizeBytes: number): Manifest {
  if (!Number.isInteger(count) || count < 1) throw new Error(`file count must be a positive integer, got ${count}`);
  if (!Number.isInteger(sizeBytes) || sizeBytes < 1) throw new Error(`file size must be a positive integer, got ${sizeBytes}`);
  mkdirSync(dir, { recursive: true });
  const files: DataFile[] = [];
  const buffer = new Uint8Array(sizeBytes);
  for (let i = 0; i < count; i++) {
    randomFillSync(buffer);
    const name = `file-${String(i).padStart(4, '0')}.bin`;
    writeFileSync(join(dir, name), buffer);
    files.push({ name, bytes: sizeBytes, checksum: checksum32(buffer) });
  }
  const manifest: Manifest = { count, sizeBytes, checksums: CHECKSUM_KIND, files };
  // The manifest goes last and atomically: its presence means every file is complete.
  const tmp = join(dir, `${MANIFEST}.tmp`);
  writeFileSync(tmp, JSON.stringify(manifest, null, 2));
  renameSync(tmp, join(dir, MANIFEST));
  return manifest;
}

/**
 * Whether `dir` holds a complete set matching the wanted shape, its checksums of the kind the
 * file scenario answers with (so generation can be skipped).
 */
export function hasDataFiles(dir: string, count: number, sizeBytes: number): boolean {
  try {
    const manifest = loadManifest(dir);
    return manifest.count === count && manifest.sizeBytes === sizeBytes && manifest.checksums === CHECKSUM_KIND;
  } catch {
    return false;
  }
}

/** The manifest alone (what the files should hold), without looking at the files: the harness checks answers with it. */
export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) throw new Error(`data files missing: no ${path}; generate them with \`pnpm data\``);
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/**
 * Reads the manifest and checks every file is there with its size. Throws one clear message
 * otherwise, so a server never starts on a missing or half-written set.
 */
export function loadManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST);
  const manifest = readManifest(dir);
  if (!Array.isArray(manifest.files) || manifest.files.length === 0) {
    throw new Error(`data manifest ${path} lists no files; regenerate with \`pnpm data\``);
  }
  if (manifest.checksums !== CHECKSUM_KIND) {
    throw new Error(`data manifest ${path} holds checksums of an older version; regenerate with \`pnpm data\``);
  }
  for (const file of manifest.files) {
    const filePath = join(dir, file.name);
    if (!existsSync(filePath) || statSync(filePath).size !== file.bytes) {
      throw new Error(`data file ${filePath} is missing or has the wrong size; regenerate with \`pnpm data\``);
    }
  }
  return manifest;
}
