// `pnpm bench:all|bench:node|bench:bun|bench:deno [flags]`: the plan, the run, the report.
import { resolve } from 'node:path';
import { planSpecs } from './bench/lanes.ts';
import { creatableDir, typedPath } from './cli/flags.ts';
import type { CommandContext } from './cli/command.ts';
import { exitCode } from './bench/bench.ts';
import { type Planned, runBenchCommand } from './bench-entry.ts';
import type { Report } from './model/report.ts';
import { fdWarning } from './system/fd-limit.ts';
import { PRECISION, parsePlan } from './bench/plan.ts';
import { loadUserScenarios, setupUserScenarios, userScenarioFiles } from './servers/user-scenarios.ts';
import { readsDataFiles } from './servers/scenarios.ts';
import { renderConsoleSummary } from './report/render/console.ts';
import { planLines } from './report/text/progress-lines.ts';
import type { RemoteSetup } from './remote/preflight.ts';
import type { ServerHost } from './servers/server-host.ts';
import { DEFAULT_DATA_DIR } from './system/data-files.ts';
import { versionFeatures } from './versions/versions-section.ts';
import { sweepFeatures, sweepSection } from './report/sweep-section.ts';
import { combineFeatures } from './model/section.ts';
import { siteLines } from './site-kinds.ts';

async function planBench(argv: string[], { signal }: CommandContext): Promise<Planned | number> {
  // The user's own modules are loaded and checked first, so --scenarios can name them.
  const files = await loadUserScenarios(userScenarioFiles(argv, typedPath), 'bench');
  if (files === undefined) return 2;
  const plan = parsePlan(argv);
  plan.scenarioFiles = files;
  // pnpm runs scripts from the package folder: paths are relative to where the user typed them.
  if (plan.outDir !== undefined) plan.outDir = creatableDir('out', typedPath(plan.outDir));
  if (plan.dataDir !== undefined) plan.dataDir = typedPath(plan.dataDir);
  // Named versions are resolved (and fetched once) before anything starts: an unknown one exits 2.
  // With --server-host they are resolved on the server host instead (below, after its preflight).
  let specs = plan.remote !== undefined && plan.versions !== undefined ? [] : planSpecs(plan, (line) => console.error(`bench: ${line}`));
  if (!(await setupUserScenarios(plan, 'bench'))) return 2;

  // --server-host: reachable, key accepted, checkout and runtimes there, all before anything starts.
  let remote: RemoteSetup | undefined;
  let serverHost: ServerHost | undefined;
  if (plan.remote !== undefined) {
    // Loaded only for --server-host: ssh and the remote server's modules are no part of a local run's start.
    const [{ assertSomeRuntime, movePath, preflight, PreflightError, processRefusal }, { resolveRemoteVersions }, { serverHostOf }] =
      await Promise.all([import('./remote/preflight.ts'), import('./remote/remote-versions.ts'), import('./remote/remote-host.ts')]);
    // Data files are asked of the server host only when a planned scenario reads them; without
    // them the server there serves that scenario as 503 and the rest as usual.
    const data = plan.scenarios.some(readsDataFiles)
      ? { dir: movePath(plan.dataDir ?? DEFAULT_DATA_DIR, plan.remote.dir), count: plan.fileCount, sizeBytes: plan.fileSizeBytes }
      : undefined;
    remote = await preflight(plan.remote, plan.runtimes, data);
    const host = remote.environment.host;
    if (plan.versions !== undefined) {
      remote.versions = await resolveRemoteVersions(remote.target, plan.versions, (line) => console.error(`bench: ${line}`));
      specs = [...remote.versions.values()].map((v) => v.spec);
    }
    const refused = processRefusal(plan, remote.environment.cpu.count, remote.maxUserProcesses, host);
    if (refused !== undefined) throw new PreflightError(refused);
    assertSomeRuntime(remote, plan.runtimes);
    serverHost = serverHostOf(remote);
  }

  // Interrupted during the preflight: nothing ran, nothing to write.
  if (signal.aborted) return 0;
  const fd = fdWarning(Math.max(...plan.connections));
  const host =
    remote === undefined
      ? []
      : [
          `servers on ${remote.environment.host} (${remote.environment.os}, ${remote.environment.cpu.count} CPUs), bound to ${remote.target.bind}, checkout ${remote.target.dir}`,
        ];
  const labels = specs.map((s) => s.label ?? s.name);
  const banner = planLines(plan, labels, PRECISION.targetPrecision, [...(fd === undefined ? [] : [fd]), ...host]);
  return {
    plan,
    lanes: specs.map((spec) => ({ spec })),
    banner,
    ...(serverHost === undefined ? {} : { run: { host: serverHost } }),
  };
}

function reportBench(report: Report, runDir: string, { plan }: Planned): number {
  console.log(renderConsoleSummary(report));
  const sweep = sweepSection(report)?.console?.();
  if (sweep !== undefined) console.log(`\n${sweepSection(report)?.title ?? ''}\n${sweep}`);
  console.log(
    `\nreport: ${resolve(runDir, 'report.html')}\n        ${resolve(runDir, 'report.md')}\n        ${resolve(runDir, 'report.json')}`,
  );
  console.log(siteLines(runDir));
  return exitCode(report, plan.strict);
}

/** What the features add to a bench report: versions compared, and a --sweep's section. */
const features = combineFeatures(versionFeatures, sweepFeatures);

runBenchCommand({ name: 'bench', features, plan: planBench, report: reportBench });
