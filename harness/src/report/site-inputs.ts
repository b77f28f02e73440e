/**
 * Finding the runs for the results site: every folder under the roots given that holds a known
 * report file, read and recognised by the kinds handed in. A corrupt, partial or foreign file
 * is listed as skipped with its reason; the site still builds from the rest.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from '../model/environment.ts';
import { machineOf, type SiteInput, type SiteKind, type SiteRun, type SkippedRun } from './site-model.ts';

/** Folders that are never runs: the site itself, a run's per-cell files, the `latest` link. */
const NOT_RUNS = new Set(['site', 'cells', 'curves', 'node_modules']);
const DEPTH = 3;

function runFolders(root: string, files: readonly string[], depth = DEPTH): string[] {
  // meta.json without a report: a run that never finished merging, listed as skipped.
  if ([...files, 'meta.json'].some((f) => existsSync(join(root, f)))) return [root];
  if (depth === 0) return [];
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(root, name);
    // `latest` is a symlink to a run listed anyway; following links could also loop.
    if (NOT_RUNS.has(name) || name.startsWith('.') || lstatSync(path).isSymbolicLink() || !lstatSync(path).isDirectory()) return [];
    return runFolders(path, files, depth - 1);
  });
}

function readRun(dir: string, kinds: readonly SiteKind[]): SiteRun | SkippedRun {
  const file = [...new Set(kinds.map((k) => k.file))].map((f) => join(dir, f)).find((p) => existsSync(p));
  if (file === undefined)
    return {
      path: dir,
      reason: `partial run: no ${kinds
        .map((k) => k.file)
        .filter((f, i, all) => all.indexOf(f) === i)
        .join(' or ')}`,
    };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { path: file, reason: `not valid JSON: ${(error as Error).message.split('\n')[0]}` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { path: file, reason: 'not a report (not a JSON object)' };
  const record = json as Record<string, unknown>;
  const kind = kinds.find((k) => file.endsWith(k.file) && k.accepts(record));
  if (kind === undefined)
    return { path: file, reason: `not a report this site knows${typeof record.kind === 'string' ? ` (kind "${record.kind}")` : ''}` };
  if (record.schemaVersion !== 1) return { path: file, reason: `schemaVersion ${JSON.stringify(record.schemaVersion)}, this site reads 1` };
  try {
    const section = kind.section(record, dir);
    const environment = record.environment as Partial<Environment> | undefined;
    const html = join(dir, 'report.html');
    return {
      kind: kind.kind,
      dir,
      file,
      createdAt: typeof record.createdAt === 'string' ? record.createdAt : '',
      status: typeof record.status === 'string' ? record.status : 'unknown',
      ...(typeof environment?.commit === 'string' ? { commit: environment.commit } : {}),
      ...(typeof environment?.dirty === 'boolean' ? { dirty: environment.dirty } : {}),
      machine: machineOf(environment),
      page: existsSync(html) ? html : file,
      section,
    };
  } catch (error) {
    return { path: file, reason: `cannot be shown: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** Every run under `roots` (each a results folder or one run's folder) that one of `kinds` recognises. */
export function collectRuns(roots: readonly string[], kinds: readonly SiteKind[]): SiteInput {
  const files = [...new Set(kinds.map((k) => k.file))];
  const runs: SiteRun[] = [];
  const skipped: SkippedRun[] = [];
  for (const dir of [...new Set(roots.flatMap((root) => runFolders(root, files)))]) {
    const run = readRun(dir, kinds);
    if ('section' in run) runs.push(run);
    else skipped.push(run);
  }
  return { runs, skipped };
}
