/**
 * What two commits' servers can differ in, for `bench:ab --a ref:X --b ref:Y`: the harness is
 * the current checkout's on both sides, so a change to it, the docs or the tests reaches no
 * server, and a change only to a catalogue scenario's module reaches only that scenario's cells.
 * Anything else (the app, the runtimes' entrypoints, the lockfile, a file this list does not
 * know) may reach every cell. Without --scenarios, bench:ab measures what the difference can
 * reach, and nothing when it reaches no server.
 */
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from '../system/paths.ts';

/** Paths no server reads: the harness that measures both sides alike, docs, tests and tooling. */
const NOT_SERVED = [
  /^harness\//,
  /^docs\//,
  /^scripts\//,
  /^\.ci\//,
  /^\.github\//,
  /(^|\/)test\//,
  /\.md$/,
  /(^|\/)vitest\.config\.ts$/,
  /^(biome\.json|knip\.json|turbo\.json|\.dependency-cruiser\.cjs|\.gitignore)$/,
];

/** A catalogue scenario's module: `name` is its file's name (a test holds the catalogue to that). */
const SCENARIO_MODULE = /^packages\/app\/src\/scenarios\/([a-z0-9-]+)\.ts$/;

/** One line of `git diff --name-status`: M(odified), A(dded), D(eleted), T(ype changed). */
export interface ChangedFile {
  status: string;
  path: string;
}

export interface RefScope {
  /** Every file the commits differ in. */
  files: number;
  /** Those a server may read. */
  serverFiles: string[];
  /**
   * Scenarios whose module alone differs, present in both commits: when every server file is
   * such a module (an empty list when the servers differ in nothing both can serve); undefined
   * when the difference may reach every cell.
   */
  scenarios?: string[];
  /** Scenario modules added or removed: in one commit only, nothing to compare them with. */
  oneSided: string[];
}

/** What the changed files can reach; `known`: the scenario names this harness can plan. */
export function refScope(changed: readonly ChangedFile[], known: readonly string[]): RefScope {
  const served = changed.filter((f) => !NOT_SERVED.some((pattern) => pattern.test(f.path)));
  const serverFiles = served.map((f) => f.path);
  const modules = served.map((f) => ({ ...f, scenario: SCENARIO_MODULE.exec(f.path)?.[1] }));
  if (modules.some((m) => m.scenario === undefined || !known.includes(m.scenario)))
    return { files: changed.length, serverFiles, oneSided: [] };
  const named = (both: boolean) => modules.filter((m) => (m.status === 'M') === both).map((m) => m.scenario ?? '');
  return { files: changed.length, serverFiles, scenarios: named(true), oneSided: named(false) };
}

/** The files two commits of this repository differ in (renames as a removal and an addition). */
export function changedFiles(from: string, to: string, cwd = REPO_ROOT): ChangedFile[] {
  const out = execFileSync('git', ['diff', '--name-status', '--no-renames', from, to], { cwd, encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [status = '', path = ''] = line.split('\t');
      return { status: status.slice(0, 1), path };
    });
}

/** The log line that says what the scope is and why; `commits`: "a1b2c3d4e5 and f6e5d4c3b2". */
export function scopeWords(scope: RefScope, commits: string): string {
  const oneSided =
    scope.oneSided.length === 0 ? '' : `; ${scope.oneSided.join(', ')} ${scope.oneSided.length === 1 ? 'is' : 'are'} in one commit only`;
  if (scope.serverFiles.length === 0)
    return `${commits} differ in ${scope.files} file${scope.files === 1 ? '' : 's'}, none of them read by a server (the harness, docs, tests): no cell can differ, so none is measured (--scenarios measures them anyway)`;
  if (scope.scenarios?.length === 0)
    return `${commits} differ, for the servers, only in scenario modules${oneSided}: nothing both can serve differs, so no cell is measured (--scenarios measures others anyway)`;
  return `${commits} differ, for the servers, only in ${scope.serverFiles.join(', ')}${oneSided}: measuring ${scope.scenarios?.join(', ')} (--scenarios names others)`;
}
