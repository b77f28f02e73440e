/**
 * A lane is what is measured against the run's other lanes: a runtime installation, the build
 * of the app it serves, a scenario module of its own, settings, a number of serving processes.
 * Runtimes, named versions, --processes counts and bench:ab's A and B sides are all lanes, built
 * here and scheduled alike (bench/schedule.ts), so the scheduler never asks which kind it has.
 */
import type { ServerKind } from '@bench/app';
import type { Parameters } from '../model/parameters.ts';
import type { RuntimeEntry } from '../model/report.ts';
import { resolveRequest } from '../servers/runtime-install.ts';
import { probeRuntime, runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import type { RunningServer, StartOptions } from '../servers/server.ts';
import type { Plan } from './plan.ts';
import type { RunSetup, ServerSettings } from './run-setup.ts';

/** A lane's part in a comparison of two (bench:ab's A and B); a round policy finds its lanes by it, not by their labels. */
export type Role = 'a' | 'b';

/** What one lane runs. */
export interface LaneSpec {
  /**
   * The runtime installation and the app build it starts (a ref's worktree has its own
   * entrypoints); its label, when set, names the lane in the report ("node@24", "node-A").
   */
  spec: RuntimeSpec;
  /** A scenario module this lane's servers load besides the run's own (bench:ab file:). */
  moduleFile?: string;
  /** Added to this lane's servers' environment, over the run's (bench:ab env:). */
  env?: Readonly<Record<string, string>>;
  /** Serving processes of this lane's servers (--processes); undefined = one, and not recorded. */
  processes?: number;
  /** bench:ab: which side this lane measures. */
  role?: Role;
}

/** A lane as the run holds it: what it runs, its report entry and its servers (started on demand). */
export interface Lane extends LaneSpec {
  entry: RuntimeEntry;
  servers: Map<ServerKind, RunningServer>;
  /** Why a server kind could not start: it is not tried again in this run. */
  startErrors: Map<ServerKind, string>;
}

/** The lane's name in log lines: its label, or its runtime's name. */
export function laneName(lane: Pick<LaneSpec, 'spec'>): string {
  return lane.spec.label ?? lane.spec.name;
}

/**
 * The run's lanes: each installation given once per process count. Lanes of one installation share its report entry (one
 * version, one status), returned once in `entries`. `skipped` counts the lanes whose
 * installation is missing or broken: they take no part in the rounds.
 */
export function runLanes(
  plan: Plan,
  setup: Pick<RunSetup, 'host' | 'log' | 'serverCpuCount'>,
  given: readonly LaneSpec[],
): { lanes: Lane[]; skipped: number; entries: RuntimeEntry[]; autoProcesses?: Parameters['autoProcesses'] } {
  const { host, log } = setup;
  const counts = plan.processes?.map((p) => (p === 'auto' ? setup.serverCpuCount : p));
  const processCounts = counts === undefined ? [undefined] : [...new Set(counts)];
  const auto = plan.processes?.includes('auto') === true;
  const lanes: Lane[] = [];
  const entries: RuntimeEntry[] = [];
  let skipped = 0;
  for (const base of given) {
    const opened = openLane(base, log, host);
    entries.push(opened.entry);
    for (const processes of processCounts) {
      const lane: Lane = { ...opened, servers: new Map(), startErrors: new Map(), ...(processes === undefined ? {} : { processes }) };
      if (lane.entry.status === 'ok') lanes.push(lane);
      else skipped++;
    }
  }
  return {
    lanes,
    skipped,
    entries,
    ...(auto ? { autoProcesses: { count: setup.serverCpuCount, cpusOf: host?.environment.host ?? 'this host' } } : {}),
  };
}

/** One spec per installation: each named version's (fetched if needed), or each runtime's pinned one. */
export function planSpecs(plan: Plan, log: (line: string) => void): RuntimeSpec[] {
  return plan.versions === undefined
    ? plan.runtimes.map((name) => runtimeSpec(name))
    : plan.versions.map((request) => resolveRequest(request, { log }));
}

/**
 * A lane for one installation, or its entry saying why it is skipped (binary missing or broken,
 * here or on the server host). With --server-host the server host's own installation of that
 * runtime is used (found by the preflight), not this host's.
 */
function openLane(base: LaneSpec, log: (line: string) => void, host?: Pick<NonNullable<RunSetup['host']>, 'installation'>): Lane {
  const there = host?.installation(base.spec);
  const spec = there?.spec ?? base.spec;
  const probed = there?.probe ?? probeRuntime(spec);
  if (!probed.ok) log(`${laneName({ spec })}: skipped: ${probed.reason}`);
  const where = {
    ...(spec.source === undefined ? {} : { source: spec.source }),
    ...(spec.binary === '' ? {} : { binary: spec.binary }),
    ...(spec.label === undefined ? {} : { label: spec.label }),
  };
  const entry: RuntimeEntry = probed.ok
    ? { name: spec.name, version: probed.version, status: 'ok', ...where }
    : { name: spec.name, version: '', status: 'skipped', reason: probed.reason, ...where };
  return { ...base, spec, entry, servers: new Map(), startErrors: new Map() };
}

/**
 * How a server of this lane starts on this host: the run's server flags and environment with the
 * lane's own added. `processFlag`: whether --processes goes on its command line (a profiled
 * server runs one process and is not told).
 */
export function laneStart(
  lane: LaneSpec,
  servers: ServerSettings,
  processFlag: boolean,
): Pick<StartOptions, 'serverArgs' | 'processes' | 'cpus' | 'env'> {
  const env = servers.env === undefined && lane.env === undefined ? undefined : { ...servers.env, ...lane.env };
  return {
    serverArgs: [
      ...servers.args,
      ...(processFlag && lane.processes !== undefined ? ['--processes', String(lane.processes)] : []),
      ...(lane.moduleFile === undefined ? [] : ['--scenario-file', lane.moduleFile]),
    ],
    ...(processFlag && lane.processes !== undefined ? { processes: lane.processes } : {}),
    ...(servers.cpus === undefined ? {} : { cpus: servers.cpus }),
    ...(env === undefined ? {} : { env }),
  };
}
