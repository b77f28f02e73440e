// `tsx src/seeds-cli.ts [--runtimes node,bun,deno] [--claims ID,...] [--runs N] [--quick] [--out DIR]`: the four
// source experiments (docs/seeds.md) replayed on each runtime, their claims checked; writes
// report.json, report.md and report.html to a results folder of its own (a seeds run is not a
// plan of cells, so it does not go through report.json's cell schema).
import os from 'node:os';
import { join, resolve } from 'node:path';
import type { RuntimeName } from '@bench/app';
import { FlagError, nameList, numberFlag, parseFlags, typedPath, writableDir } from './cli/flags.ts';
import { type CommandContext, runCommand } from './cli/command.ts';
import { makeRunDir, writeFileAtomic, writeJsonAtomic } from './model/run-files.ts';
import { siteLines } from './site-kinds.ts';
import { RUNTIME_NAMES } from './servers/runtimes.ts';
import { stopAllServers } from './servers/server.ts';
import { DEFAULT_DATA_DIR, ensureDataFiles } from './system/data-files.ts';
import { autocannonVersion, environment } from './system/environment.ts';
import { REPO_ROOT, RESULTS_ROOT } from './system/paths.ts';
import { REMOTE_FLAGS } from './servers/server-host.ts';
import { probeApacheBench } from './seeds/apache-bench.ts';
import { CLAIMS, type ClaimId } from './seeds/claims.ts';
import { judge } from './seeds/judge.ts';
import { renderSeedsConsole, renderSeedsHtml, renderSeedsMarkdown, type SeedsReport } from './seeds/render.ts';
import { replayRuntime } from './seeds/replay.ts';
import { FULL_SHAPE, QUICK_SHAPE, type ReplayShape } from './seeds/replay-shape.ts';

const CLAIM_IDS = CLAIMS.map((c) => c.id);

const SEEDS_REMOTE_REFUSAL =
  "--server-host is not supported by bench:seeds yet: experiments 001 (file reads, evicted from this host's page cache) and 003 (a static file made on this host) cannot run on another host; 000 and 002 could, but the replay starts its servers on this host only";

/** Seed 003's one static file: its size is not given; a small page-sized file keeps it a "static file" test. */
const STATIC = { dir: resolve(REPO_ROOT, 'data/seeds-static'), count: 1, sizeBytes: 16 * 1024 } as const;

interface CliOptions {
  runtimes: RuntimeName[];
  claims: ClaimId[];
  shape: ReplayShape;
  quick: boolean;
  outDir: string | undefined;
}

function parseSeedsArgs(argv: string[]): CliOptions {
  const values = parseFlags(argv, ['runtimes', 'claims', 'runs', 'out', ...REMOTE_FLAGS], ['quick']);
  // --server-host: refused in one line rather than run half-remote (000 and 002 would carry over; 001
  // and 003 need their files made and evicted on the server host, which the replay cannot yet do).
  if (REMOTE_FLAGS.some((flag) => values[flag] !== undefined)) throw new FlagError(SEEDS_REMOTE_REFUSAL);
  const quick = values.quick === true;
  const shape = quick ? QUICK_SHAPE : FULL_SHAPE;
  // Two runs at least: the verdict needs an interval.
  const runs = numberFlag('runs', values.runs as string | undefined, 2, 50, true) ?? shape.runs;
  return {
    runtimes: nameList('runtimes', values.runtimes as string | undefined, RUNTIME_NAMES) ?? [...RUNTIME_NAMES],
    claims: nameList('claims', values.claims as string | undefined, CLAIM_IDS) ?? [...CLAIM_IDS],
    shape: { ...shape, runs },
    quick,
    outDir: values.out as string | undefined,
  };
}

async function main({ signal }: CommandContext): Promise<number> {
  const options = parseSeedsArgs(process.argv.slice(2));
  if (options.outDir !== undefined) options.outDir = writableDir('out', typedPath(options.outDir));
  const progress = (line: string) => console.error(line);
  const manifest = ensureDataFiles(DEFAULT_DATA_DIR, undefined, undefined, progress);
  const staticManifest = ensureDataFiles(STATIC.dir, STATIC.count, STATIC.sizeBytes, progress);
  // BENCH_AB_BIN: another ab build, or (in the tests) a missing one.
  const apacheBenchBinary = process.env.BENCH_AB_BIN || 'ab';
  const apacheBench = probeApacheBench(apacheBenchBinary);
  const dir = options.outDir ?? makeRunDir(RESULTS_ROOT, new Date(), 'seeds-');
  const report: SeedsReport = {
    kind: 'seeds',
    schemaVersion: 1,
    createdAt: new Date().toISOString(),
    status: 'interrupted',
    environment: environment(),
    parameters: {
      ...options.shape,
      quick: options.quick,
      ...(options.claims.length === CLAIM_IDS.length ? {} : { claims: options.claims }),
    },
    clients: { ab: apacheBench.ok ? { version: apacheBench.version } : { reason: apacheBench.reason }, autocannon: autocannonVersion() },
    runtimes: [],
    rows: [],
  };
  const write = () => {
    writeJsonAtomic(join(dir, 'report.json'), report);
    writeFileAtomic(join(dir, 'report.md'), renderSeedsMarkdown(report));
    writeFileAtomic(join(dir, 'report.html'), renderSeedsHtml(report));
  };
  const cores = os.availableParallelism();
  for (const runtime of options.runtimes) {
    if (signal.aborted) break;
    const done = await replayRuntime(runtime, {
      shape: options.shape,
      claims: options.claims,
      dataDir: DEFAULT_DATA_DIR,
      manifest,
      staticDir: STATIC.dir,
      staticManifest,
      abMissing: apacheBench.ok ? undefined : apacheBench.reason,
      apacheBenchBinary,
      signal,
      progress,
    });
    const failed = done.rows.length > 0 && done.rows.every((r) => r.status === 'failed');
    report.runtimes.push({
      name: runtime,
      ...(done.version === undefined ? {} : { version: done.version }),
      status: done.reason !== undefined ? 'skipped' : failed ? 'failed' : 'ok',
      ...(done.reason === undefined ? {} : { reason: done.reason }),
    });
    report.rows.push(...done.rows.map((m) => judge(m, cores)));
    // Written after each runtime, so an interrupted run keeps what it finished.
    write();
  }
  await stopAllServers();
  if (!signal.aborted) report.status = 'complete';
  write();
  console.log(['', renderSeedsConsole(report), '', `written: ${join(dir, 'report.json')} (.md, .html)`, siteLines(dir)].join('\n'));
  return report.rows.some((r) => r.status === 'ok') ? 0 : 1;
}

runCommand('seeds', main, { interruptible: true, cleanup: stopAllServers });
