/**
 * A run's folder on disk: its meta, one file per finished cell (the unit that survives an
 * interruption), the report files, and the `latest` link. What is written and read back, below
 * whatever measures or renders it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { CellResult } from './cell.ts';
import type { Environment } from './environment.ts';
import type { CellProfile } from './profile.ts';
import type { Parameters } from './parameters.ts';
import type { Report, RuntimeEntry } from './report.ts';

/** What a run knows before and while it measures: written first, updated as runtimes finish. */
export interface RunMeta {
  createdAt: string;
  environment: Environment;
  parameters: Parameters;
  runtimes: RuntimeEntry[];
}

/**
 * A results folder named for the time, made exclusively: two runs started in the same second
 * get "-2", "-3" instead of writing into one folder.
 */
export function makeRunDir(root: string, now: Date = new Date(), prefix = ''): string {
  mkdirSync(root, { recursive: true });
  const stamp =
    prefix +
    now
      .toISOString()
      .replace(/\.\d+Z$/, 'Z')
      .replace(/:/g, '-');
  for (let i = 1; ; i++) {
    const dir = join(root, i === 1 ? stamp : `${stamp}-${i}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Temporary file, then rename: a reader sees the old file or the new one, never half of one. */
export function writeFileAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

export const writeJsonAtomic = (path: string, value: unknown) => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);

const CELLS = 'cells';
/** A cell's CPU profile summary (--profile), found after the rounds: kept beside the cell, never written into it. */
const CELL_PROFILES = join(CELLS, 'profiles');

/**
 * A cell's file name. In a --connections sweep the count is in the name: each count's cell is
 * its own file.
 */
function cellFileName(cell: CellResult, connectionsSwept: boolean): string {
  const sweep = connectionsSwept && cell.connections !== undefined ? `-c${cell.connections}` : '';
  const processes = cell.processes === undefined ? '' : `-x${cell.processes}`;
  // A sized cell's query in its name ("kb=64" -> "-kb64"): the sizes of one mode are separate files.
  const input = cell.query === undefined ? '' : `-${cell.query.replace(/[^A-Za-z0-9.]+/g, '')}`;
  return `${cell.runtimeLabel ?? cell.runtime}-${cell.scenario}-${cell.mode}${sweep}${processes}${input}.json`;
}

/**
 * One file per finished cell, written once, the moment it finishes: the unit that survives
 * interruption. What later phases find about it goes to files of their own (writeCellProfile).
 */
export function writeCell(runDir: string, cell: CellResult, connectionsSwept: boolean): string {
  const path = join(runDir, CELLS, cellFileName(cell, connectionsSwept));
  writeJsonAtomic(path, cell);
  return path;
}

/** A finished cell's profile, beside its file: readCells puts the two together. */
export function writeCellProfile(runDir: string, cell: CellResult, connectionsSwept: boolean, profile: CellProfile): void {
  writeJsonAtomic(join(runDir, CELL_PROFILES, cellFileName(cell, connectionsSwept)), profile);
}

/** The run's cells, each with its profile when one was taken. */
export function readCells(runDir: string): CellResult[] {
  let names: string[];
  try {
    names = readdirSync(join(runDir, CELLS))
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return names.map((n) => {
    const cell = JSON.parse(readFileSync(join(runDir, CELLS, n), 'utf8')) as CellResult;
    const profile = join(runDir, CELL_PROFILES, n);
    return existsSync(profile) ? { ...cell, profile: JSON.parse(readFileSync(profile, 'utf8')) as CellProfile } : cell;
  });
}

export function writeMeta(runDir: string, meta: RunMeta): void {
  writeJsonAtomic(join(runDir, 'meta.json'), meta);
}

export function writeReportFiles(runDir: string, report: Report, markdown: string, html: string): void {
  writeJsonAtomic(join(runDir, 'report.json'), report);
  writeFileAtomic(join(runDir, 'report.md'), markdown);
  writeFileAtomic(join(runDir, 'report.html'), html);
}

/**
 * Points `<root>/latest` at this run: a new symlink renamed over the old one, so concurrent runs
 * leave it pointing at one complete folder or the other, never broken or half-made.
 */
export function updateLatest(root: string, runDir: string): void {
  const link = join(root, 'latest');
  const tmp = join(root, `.latest.${process.pid}.${Date.now()}`);
  rmSync(tmp, { force: true });
  symlinkSync(relative(root, runDir) || basename(runDir), tmp);
  renameSync(tmp, link);
}
