// A bench:seeds run once its command line is parsed (seeds-cli.ts): every named claim replayed on
// each runtime, judged, and written after each runtime so an interrupted run keeps what finished.
import os from 'node:os';
import { join, resolve } from 'node:path';
import type { RuntimeName } from '@bench/app';
import { makeRunDir, writeFileAtomic, writeJsonAtomic } from '../model/run-files.ts';
import { stopAllServers } from '../servers/server.ts';
import { DEFAULT_DATA_DIR, ensureDataFiles } from '../system/data-files.ts';
import { autocannonVersion, environment } from '../system/environment.ts';
import { REPO_ROOT, RESULTS_ROOT } from '../system/paths.ts';
import { probeApacheBench } from './apache-bench.ts';
import { CLAIMS, type ClaimId } from './claims.ts';
import { judge } from './judge.ts';
import { renderSeedsConsole, renderSeedsHtml, renderSeedsMarkdown, type SeedsReport } from './render.ts';
import { replayRuntime } from './replay.ts';
import type { ReplayShape } from './replay-shape.ts';

/** Seed 003's one static file: its size is not given; a small page-sized file keeps it a "static file" test. */
const STATIC = { dir: resolve(REPO_ROOT, 'data/seeds-static'), count: 1, sizeBytes: 16 * 1024 } as const;

export interface SeedsOptions {
  runtimes: RuntimeName[];
  claims: ClaimId[];
  shape: ReplayShape;
  quick: boolean;
  outDir: string | undefined;
}

/** Replays the claims, writes the report and prints it; the folder it wrote and the exit code. */
export async function runSeeds(options: SeedsOptions, signal: AbortSignal): Promise<{ dir: string; exit: number }> {
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
      ...(options.claims.length === CLAIMS.length ? {} : { claims: options.claims }),
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
  console.log(['', renderSeedsConsole(report), '', `written: ${join(dir, 'report.json')} (.md, .html)`].join('\n'));
  return { dir, exit: report.rows.some((r) => r.status === 'ok') ? 0 : 1 };
}
