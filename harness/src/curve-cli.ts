// `pnpm bench:curve [flags]`: open-loop load curves. Per cell a ladder of offered rates (from
// its closed-loop throughput, or --rates), latency from the scheduled send time, capacity at
// the latency target (--slo-ms) and the knee. Writes report.json (a `curves` section), report.md
// and report.html to a results folder; each finished curve is on disk at once.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadManifest } from '@bench/app';
import { creatableDir, typedPath, writableDir } from './cli/flags.ts';
import { type CommandContext, runCommand } from './cli/command.ts';
import { curveParameters, parseCurvePlan } from './curve/curve-plan.ts';
import type { Curve, CurveReport } from './curve/curve-types.ts';
import { Generator } from './load/generator.ts';
import { renderCurveHtml } from './curve/render-html.ts';
import { renderCurveConsole, renderCurveMarkdown } from './curve/render-text.ts';
import { sweepRuntime } from './curve/sweep.ts';
import { makeRunDir, writeFileAtomic, writeJsonAtomic } from './model/run-files.ts';
import { siteLines } from './site-kinds.ts';
import { loadChartAssets } from './present/html-assets.ts';
import { Interrupted } from './cli/interrupt.ts';
import { cellsFor, readsDataFiles, scenarioSettings, scenariosFlag } from './servers/scenarios.ts';
import { loadUserScenarios, setupUserScenarios, userScenarioFiles } from './servers/user-scenarios.ts';
import { stopAllServers } from './servers/server.ts';
import { DEFAULT_DATA_DIR, ensureDataFiles } from './system/data-files.ts';
import { DATA_DEFAULTS } from '@bench/app';
import { environment } from './system/environment.ts';
import { tasksetAvailable } from './system/pinning.ts';
import { startSpeedSampler } from './system/speed-sampler.ts';
import { fdWarning } from './system/fd-limit.ts';
import { RESULTS_ROOT } from './system/paths.ts';
import { assertSomeRuntime, movePath, preflight, type RemoteSetup } from './remote/preflight.ts';
import { startRemoteServer } from './remote/remote-server.ts';
import { measureNetwork, networkLine } from './remote/rtt.ts';
import type { ServerSide } from './curve/server-side.ts';
import type { RuntimeSpec } from './servers/runtimes.ts';

async function main({ signal }: CommandContext): Promise<number> {
  const argv = process.argv.slice(2);
  // The user's own modules are loaded and checked first, so --scenarios can name them.
  const files = await loadUserScenarios(userScenarioFiles(argv, typedPath), 'curve');
  if (files === undefined) return 2;
  const plan = parseCurvePlan(argv);
  plan.scenarioFiles = files;
  if (plan.outDir !== undefined) plan.outDir = creatableDir('out', typedPath(plan.outDir));
  if (plan.dataDir !== undefined) plan.dataDir = typedPath(plan.dataDir);
  if (!(await setupUserScenarios(plan, 'curve'))) return 2;
  // --server-host: reachable, key accepted, checkout, runtimes and data there, before anything starts.
  let remote: RemoteSetup | undefined;
  if (plan.remote !== undefined) {
    // Data files are asked of the server host only when a planned scenario reads them.
    const data = {
      dir: movePath(plan.dataDir ?? DEFAULT_DATA_DIR, plan.remote.dir),
      count: DATA_DEFAULTS.count,
      sizeBytes: DATA_DEFAULTS.sizeBytes,
    };
    remote = await preflight(
      plan.remote,
      plan.runtimes,
      plan.scenarios.some(readsDataFiles) ? remoteDataShape(plan.dataDir, data) : undefined,
    );
    assertSomeRuntime(remote, plan.runtimes);
  }
  const started = performance.now();
  const log = (line: string) => console.error(line);
  const fd = fdWarning(plan.maxInFlight);
  if (fd !== undefined) log(`curve: ${fd}`);
  // A --data-dir with files of its own is used as it is (tests give a small one).
  if (remote === undefined && !(plan.dataDir !== undefined && existsSync(join(plan.dataDir, 'manifest.json'))))
    ensureDataFiles(plan.dataDir ?? DEFAULT_DATA_DIR, undefined, undefined, log);
  // Made only now that the server host answered: a refused run leaves no empty --out behind.
  const dir = plan.outDir === undefined ? makeRunDir(RESULTS_ROOT, new Date(), 'curve-') : writableDir('out', plan.outDir);
  const cells = cellsFor(plan.scenarios, plan.modes);
  // Answers are checked here against the manifest: another host's goes beside the results.
  const checkDir = remote?.manifest === undefined ? (plan.dataDir ?? DEFAULT_DATA_DIR) : join(dir, 'server-data');
  if (remote?.manifest !== undefined) {
    mkdirSync(checkDir, { recursive: true });
    writeFileSync(join(checkDir, 'manifest.json'), JSON.stringify(remote.manifest));
  }
  const report: CurveReport = {
    kind: 'curve',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    status: 'interrupted',
    environment: { ...environment(), ...(remote === undefined ? {} : { serverHost: remote.environment }) },
    parameters: curveParameters(plan),
    runtimes: [],
    curves: [],
  };
  const assets = loadChartAssets();
  // How fast the machine is through every step (the speed sampler), on this host only: with
  // --server-host the servers' machine is not sampled, as in bench.
  const speed = remote === undefined ? startSpeedSampler({ taskset: tasksetAvailable() }) : undefined;
  const write = () => {
    if (speed !== undefined)
      report.environment.machineSpeed = speed.summary(report.curves.flatMap((c) => c.steps.map((s) => s.machine?.coresWorth)));
    report.elapsedSec = Math.round((performance.now() - started) / 100) / 10;
    writeJsonAtomic(join(dir, 'report.json'), report);
    writeFileAtomic(join(dir, 'report.md'), renderCurveMarkdown(report));
    writeFileAtomic(join(dir, 'report.html'), renderCurveHtml(report, assets));
  };
  log(
    `curve: ${plan.runtimes.join(', ')} x ${cells.length} cells, target p99 ≤ ${plan.sloMs} ms, ${plan.arrivals} arrivals, results in ${dir}`,
  );
  const generator = new Generator();
  // A step runs for seconds and the generator has no way to cut one short: ended with it.
  signal.addEventListener('abort', () => void generator.close(), { once: true });
  const serverArgs = [
    ...(plan.dataDir === undefined ? [] : ['--data-dir', remote === undefined ? plan.dataDir : movePath(plan.dataDir, remote.target.dir)]),
    ...scenariosFlag(plan.scenarios),
    '--hash-cost',
    String(plan.hashCost),
    '--fib-n',
    String(plan.fibN),
    '--sleep-ms',
    String(plan.sleepMs),
    ...plan.scenarioFiles.flatMap((file) => ['--scenario-file', file]),
  ];
  const servers = remote === undefined ? undefined : remoteServers(remote);
  try {
    if (remote !== undefined) {
      const first = plan.runtimes.map((r) => remote.runtimes.get(r)).find((r) => r?.probe.ok === true);
      if (first !== undefined)
        report.environment.network = { ...(await networkFigures(remote, first.spec, serverArgs, log)), mtu: remote.mtu };
      log(
        `curve: servers on ${remote.environment.host} (${remote.environment.cpu.count} CPUs), bound to ${remote.target.bind}; the generator here`,
      );
    }
    for (const runtime of plan.runtimes) {
      if (signal.aborted) break;
      const onCurve = (curve: Curve) => {
        report.curves.push(curve);
        writeJsonAtomic(join(dir, 'curves', `${curve.runtime}-${curve.scenario}-${curve.mode}.json`), curve);
      };
      report.runtimes.push(
        await sweepRuntime(runtime, cells, {
          plan,
          generator,
          settings: scenarioSettings({ ...plan, dataDir: checkDir }),
          serverArgs,
          signal,
          log,
          onCurve,
          ...(servers === undefined ? {} : { servers }),
          ...(speed === undefined ? {} : { speed }),
        }),
      );
      write();
    }
    if (!signal.aborted) report.status = 'complete';
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
  } finally {
    speed?.stop();
    await generator.close();
    await stopAllServers();
  }
  write();
  console.log(`\n${renderCurveConsole(report)}`);
  console.log(`report: ${join(dir, 'report.html')}\n        ${join(dir, 'report.md')}\n        ${join(dir, 'report.json')}`);
  console.log(siteLines(dir));
  return report.curves.some((c) => c.status === 'ok') ? 0 : 1;
}

/** The server host's installations (found by the preflight) and servers started there over ssh. */
function remoteServers(remote: RemoteSetup): ServerSide {
  return {
    installation(runtime) {
      const there = remote.runtimes.get(runtime);
      if (there === undefined) throw new Error(`${runtime} was not asked about on ${remote.environment.host}`);
      return { spec: there.spec, probe: there.probe };
    },
    start: (spec, kind, serverArgs, signal) =>
      startRemoteServer(spec, remote.target, { raw: kind === 'raw', serverArgs, ...(signal === undefined ? {} : { signal }) }),
  };
}

/** The network's round trip (TCP connect, both ways) beside the HTTP one, once before the curves. */
async function networkFigures(remote: RemoteSetup, spec: RuntimeSpec, serverArgs: string[], log: (line: string) => void) {
  try {
    const network = await measureNetwork(spec, remote.target, serverArgs, remote.loadAddress);
    log(`curve: ${networkLine(network)}`);
    return network;
  } catch (error) {
    log(`curve: round trips not measured: ${(error as Error).message}`);
    return { rttUnavailable: (error as Error).message };
  }
}

/**
 * The file scenario's data on the server host: the shape of the --data-dir given here (its
 * manifest), else the default files' shape.
 */
function remoteDataShape(dataDir: string | undefined, data: { dir: string; count: number; sizeBytes: number }) {
  if (dataDir === undefined || !existsSync(join(dataDir, 'manifest.json'))) return data;
  const here = loadManifest(dataDir);
  return { ...data, count: here.count, sizeBytes: here.sizeBytes };
}

runCommand('curve', main, { interruptible: true, cleanup: stopAllServers });
