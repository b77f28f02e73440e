// `tsx src/calibrate-cli.ts [--runtimes node,bun,deno] [--servers raw,hono] [--duration 2] [--runs 3]
// [--connections 10,50] [--workers 0,1,2] [--wrk-threads 2] [--wrk-connections 50] [--no-open-loop] [--quick] [--out DIR]
// [--server-host [user@]host --server-dir DIR --server-bind ADDR --ssh-config FILE]`:
// how close autocannon gets to wrk on this machine, and how fast bench:curve's open-loop generator
// sends on schedule, as a table and calibration.json.
import { join } from 'node:path';
import { creatableDir, FlagError, nameList, numberFlag, parseFlags, typedPath, writableDir } from './cli/flags.ts';
import { type CommandContext, runCommand } from './cli/command.ts';
import type { ServerKind } from '@bench/app';
import { calibrate, type CalibrateOptions } from './calibrate/calibrate.ts';
import type { CalibrationResult } from './calibrate/calibration-math.ts';
import { OPEN_LOOP_MAX_IN_FLIGHT, type OpenLoopStep } from './calibrate/open-loop-ceiling.ts';
import { Generator } from './load/generator.ts';
import { renderClosest, renderHeader, renderOpenLoop, renderSettings, renderSummary } from './calibrate/render-calibration.ts';
import { environment } from './system/environment.ts';
import { makeRunDir, writeJsonAtomic } from './model/run-files.ts';
import { siteLines } from './site-kinds.ts';
import { RUNTIME_NAMES } from './servers/runtimes.ts';
import { REPO_ROOT, RESULTS_ROOT } from './system/paths.ts';
import { stopAllServers } from './servers/server.ts';
import { preflight, type RemoteSetup } from './remote/preflight.ts';
import { REMOTE_FLAGS, remoteTarget, type RemoteTarget } from './servers/server-host.ts';

const SERVER_KINDS = ['raw', 'hono'] as const satisfies readonly ServerKind[];
const FULL = { durationSec: 2, runs: 3 } as const;
/** --quick: one short run per setting, to see the shape of things in well under a minute per server. */
const QUICK = { durationSec: 0.5, runs: 1 } as const;

type CliOptions = Omit<CalibrateOptions, 'progress' | 'signal' | 'remote' | 'openLoop'> & {
  outDir: string | undefined;
  target: RemoteTarget | undefined;
  openLoop: boolean;
};

function ints(flag: string, raw: string | undefined, min: number, max: number): number[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw new FlagError(`--${flag} is empty; give integers from ${min} to ${max}, e.g. ${min},${max}`);
  return [...new Set(items.map((item) => numberFlag(flag, item, min, max, true) ?? min))];
}

function parseCalibrateArgs(argv: string[]): CliOptions {
  const values = parseFlags(
    argv,
    [
      'runtimes',
      'servers',
      'duration',
      'runs',
      'warmup',
      'connections',
      'workers',
      'wrk-threads',
      'wrk-connections',
      'out',
      ...REMOTE_FLAGS,
    ],
    ['quick', 'no-open-loop'],
  );
  const str = (k: string) => values[k] as string | undefined;
  const opt = (k: string, min: number, max: number, integer: boolean) => numberFlag(k, str(k), min, max, integer);
  const base = values.quick === true ? QUICK : FULL;
  const wrkThreads = opt('wrk-threads', 1, 64, true) ?? 2;
  const wrkConnections = opt('wrk-connections', 1, 10_000, true) ?? 50;
  if (wrkConnections < wrkThreads)
    throw new FlagError(`--wrk-connections (${wrkConnections}) must be at least --wrk-threads (${wrkThreads})`);
  return {
    runtimes: nameList('runtimes', str('runtimes'), RUNTIME_NAMES) ?? [...RUNTIME_NAMES],
    servers: nameList('servers', str('servers'), SERVER_KINDS) ?? [...SERVER_KINDS],
    durationSec: opt('duration', 0.1, 600, false) ?? base.durationSec,
    runs: opt('runs', 1, 100, true) ?? base.runs,
    warmupSec: opt('warmup', 0.1, 60, false) ?? 0.5,
    connections: ints('connections', str('connections'), 1, 10_000) ?? [10, 50],
    // 2 workers on a 2-core machine: one thread per core; more only share the same cores.
    autocannonWorkers: ints('workers', str('workers'), 0, 16) ?? [0, 1, 2],
    wrkThreads,
    wrkConnections,
    outDir: str('out'),
    target: remoteTarget(str, REPO_ROOT),
    openLoop: values['no-open-loop'] !== true,
  };
}

async function main({ signal }: CommandContext): Promise<number> {
  const options = parseCalibrateArgs(process.argv.slice(2));
  // pnpm runs scripts from the package folder: --out is relative to where the user typed it.
  if (options.outDir !== undefined) options.outDir = creatableDir('out', typedPath(options.outDir));
  const remote: RemoteSetup | undefined = options.target === undefined ? undefined : await preflight(options.target, options.runtimes);
  // Interrupted during the preflight: nothing ran, nothing to write.
  if (signal.aborted) return 0;
  const { outDir, target: _target, openLoop: withOpenLoop, ...calibrateOptions } = options;
  // Made only now that the server host answered, and before measuring: a refused run leaves no
  // empty --out behind, and an interrupted calibration has its folder as bench's runs do.
  const dir = outDir === undefined ? makeRunDir(RESULTS_ROOT, new Date(), 'calibration-') : writableDir('out', outDir);
  const generator = withOpenLoop ? new Generator() : undefined;
  const openLoop: OpenLoopStep | undefined =
    generator === undefined
      ? undefined
      : (url, ratePerSec, durationSec) =>
          generator.runStep({
            url,
            ratePerSec,
            durationSec,
            arrivals: 'poisson',
            seed: 1,
            maxInFlight: OPEN_LOOP_MAX_IN_FLIGHT,
            timeoutMs: 2_000,
          });
  let result: CalibrationResult;
  try {
    result = await calibrate({
      ...calibrateOptions,
      progress: (line) => console.error(line),
      signal,
      ...(remote === undefined ? {} : { remote }),
      ...(openLoop === undefined ? {} : { openLoop }),
    });
  } finally {
    await generator?.close();
  }
  await stopAllServers();
  const file = join(dir, 'calibration.json');
  writeJsonAtomic(file, {
    ...result,
    environment: { ...environment(), ...(remote === undefined ? {} : { serverHost: remote.environment, mtu: remote.mtu }) },
  });
  console.log(
    [
      '',
      renderHeader(result),
      '',
      renderSummary(result),
      '',
      renderSettings(result),
      '',
      renderOpenLoop(result),
      '',
      renderClosest(result),
      '',
      `written: ${file}`,
      siteLines(dir),
    ].join('\n'),
  );
  return result.results.some((r) => r.status === 'ok') ? 0 : 1;
}

runCommand('calibrate', main, { interruptible: true, cleanup: stopAllServers });
