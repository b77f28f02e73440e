import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Manifest, RuntimeName } from '@bench/app';
import { failedCell } from './cell.ts';
import { ensureDataFiles } from './data-files.ts';
import { environment } from './environment.ts';
import { Interrupted, measureCell } from './measure.ts';
import { mergeReport } from './merge.ts';
import { makeRunDir, readCells, updateLatest, writeCell, writeMeta, writeReportFiles, type RunMeta } from './output.ts';
import type { Plan } from './plan.ts';
import { Probe } from './probe.ts';
import type { Progress } from './progress.ts';
import { loadChartAssets } from './html-assets.ts';
import { renderHtml } from './render-html.ts';
import { formatMs, formatRps, renderMarkdown } from './render-md.ts';
import type { CellResult, Parameters, Report, RuntimeEntry } from './report-types.ts';
import { probeRuntime, REPO_ROOT, runtimeSpec } from './runtimes.ts';
import { cellsFor, type CellSpec } from './scenarios.ts';
import { startServer, stopAllServers, type RunningServer } from './server.ts';

export const DEFAULT_RESULTS_ROOT = resolve(REPO_ROOT, 'data/results');

export interface BenchOptions {
  progress: Progress;
  /** Aborting it stops the load, keeps every finished cell and writes an interrupted report. */
  signal?: AbortSignal;
  resultsRoot?: string;
  /** Called as each measured run starts, with its server (fault-injection tests kill or stop it). */
  onRunStarted?: (server: RunningServer, cell: CellSpec) => void;
}

export interface BenchOutcome {
  report: Report;
  runDir: string;
  markdown: string;
}

/**
 * The whole run: per runtime, one after another, start its servers, and for each cell check,
 * warm up and measure; each finished cell goes to disk at once. At the end (or on interruption)
 * the cells on disk are merged into report.json and report.md.
 */
export async function runBench(plan: Plan, options: BenchOptions): Promise<BenchOutcome> {
  const { progress } = options;
  const signal = options.signal ?? new AbortController().signal;
  const root = options.resultsRoot ?? DEFAULT_RESULTS_ROOT;
  const runDir = plan.outDir === undefined ? makeRunDir(root) : resolve(plan.outDir);
  mkdirSync(runDir, { recursive: true });

  const dataDir = plan.dataDir === undefined ? undefined : resolve(plan.dataDir);
  const manifest = ensureDataFiles(dataDir, plan.fileCount, plan.fileSizeBytes, (line) => progress.log(line));
  const meta: RunMeta = {
    createdAt: new Date().toISOString(),
    environment: environment(),
    parameters: parameters(plan),
    runtimes: [],
  };
  writeMeta(runDir, meta);

  const cells = cellsFor(plan.scenarios, plan).filter((c) => plan.modes === undefined || plan.modes.includes(c.mode));
  const total = cells.length * plan.runtimes.length;
  const perCellSec = plan.warmupSec + plan.runs * (plan.durationSec + 0.4) + 0.3;
  let done = 0;
  const probe = new Probe();
  let interrupted = false;
  try {
    for (const runtime of plan.runtimes) {
      if (signal.aborted) break;
      const entry = await benchRuntime(runtime, cells, {
        plan,
        probe,
        manifest,
        signal,
        runDir,
        dataDir,
        progress,
        onRunStarted: options.onRunStarted,
        onCell: (cell, phase) =>
          progress.update({ cell: done + 1, cells: total, runtime, scenario: cell.scenario, mode: cell.mode, phase, etaSec: (total - done) * perCellSec }),
        onCellDone: () => done++,
      });
      meta.runtimes.push(entry);
      writeMeta(runDir, meta);
    }
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
  } finally {
    interrupted = signal.aborted;
    probe.close();
    await stopAllServers();
    progress.done();
  }

  const report = mergeReport({
    createdAt: meta.createdAt,
    status: interrupted ? 'interrupted' : 'complete',
    environment: meta.environment,
    parameters: meta.parameters,
    runtimes: meta.runtimes,
    results: readCells(runDir),
  });
  const markdown = renderMarkdown(report);
  writeReportFiles(runDir, report, markdown, renderHtml(report, loadChartAssets()));
  if (plan.outDir === undefined) updateLatest(root, runDir);
  return { report, runDir, markdown };
}

interface RuntimeContext {
  plan: Plan;
  probe: Probe;
  manifest: Manifest;
  signal: AbortSignal;
  runDir: string;
  dataDir: string | undefined;
  progress: Progress;
  onRunStarted: BenchOptions['onRunStarted'];
  onCell(cell: CellSpec, phase: string): void;
  onCellDone(): void;
}

async function benchRuntime(runtime: RuntimeName, cells: CellSpec[], ctx: RuntimeContext): Promise<RuntimeEntry> {
  const spec = runtimeSpec(runtime);
  const probed = probeRuntime(spec);
  if (!probed.ok) {
    ctx.progress.log(`${runtime}: skipped: ${probed.reason}`);
    cells.forEach(() => ctx.onCellDone());
    return { name: runtime, version: '', status: 'skipped', reason: probed.reason };
  }
  const entry: RuntimeEntry = { name: runtime, version: probed.version, status: 'ok' };
  const serverArgs = [
    ...(ctx.dataDir === undefined ? [] : ['--data-dir', ctx.dataDir]),
    ...['--hash-cost', String(ctx.plan.hashCost), '--fib-n', String(ctx.plan.fibN), '--sleep-ms', String(ctx.plan.sleepMs)],
  ];

  for (const kind of ['hono', 'raw'] as const) {
    let server: RunningServer | undefined;
    let startError: string | undefined;
    try {
      for (const cell of cells.filter((c) => c.server === kind)) {
        if (ctx.signal.aborted) throw new Interrupted('interrupted');
        ctx.onCell(cell, 'starting server');
        // A server lost in the previous cell is replaced; one that never starts is not retried.
        if (startError === undefined && (server === undefined || !server.alive)) {
          try {
            server = await startServer(spec, { raw: kind === 'raw', serverArgs });
          } catch (error) {
            startError = (error as Error).message;
            entry.status = 'failed';
            entry.reason = startError;
            ctx.progress.log(`${runtime}: ${startError}`);
          }
        }
        const meta = { runtime, scenario: cell.scenario, mode: cell.mode, path: cell.path };
        const result =
          startError !== undefined || server === undefined
            ? failedCell(meta, `server did not start: ${startError}`)
            : await measureCell(cell, {
                server,
                plan: ctx.plan,
                probe: ctx.probe,
                manifest: ctx.manifest,
                signal: ctx.signal,
                onPhase: (phase) => ctx.onCell(cell, phase),
                onRunStarted: (running) => ctx.onRunStarted?.(running, cell),
              });
        writeCell(ctx.runDir, result);
        ctx.onCellDone();
        ctx.progress.log(cellLine(result));
        if (result.status === 'failed' && server !== undefined) {
          await server.stop();
          server = undefined;
        }
      }
    } finally {
      await server?.stop();
    }
  }
  return entry;
}

function parameters(plan: Plan): Parameters {
  return {
    connections: plan.connections,
    durationSec: plan.durationSec,
    warmupSec: plan.warmupSec,
    runs: plan.runs,
    probeRatePerSec: plan.probeRatePerSec,
    hashCost: plan.hashCost,
    fibN: plan.fibN,
    sleepMs: plan.sleepMs,
    fileCount: plan.fileCount,
    fileSizeBytes: plan.fileSizeBytes,
    fileCache: 'warm',
  };
}

/**
 * 0 when something was measured; 1 when nothing ran (every runtime skipped or failed, or every
 * cell failed). With --strict, 1 as soon as anything did not run cleanly.
 */
export function exitCode(report: Report, strict: boolean): number {
  const ran = report.results.some((r) => r.status !== 'failed');
  if (!ran) return 1;
  const clean = report.runtimes.every((r) => r.status === 'ok') && report.results.every((r) => r.status === 'ok');
  return strict && !clean ? 1 : 0;
}

/** One plain line per finished cell, so a log shows results as they come. */
export function cellLine(cell: CellResult): string {
  const name = `${cell.runtime} ${cell.scenario}/${cell.mode}`;
  if (cell.status === 'failed') return `${name}: FAILED: ${cell.reason ?? ''}`;
  const rps = cell.requestsPerSec;
  const figures = `${formatRps(rps.median)} req/s (CV ${(rps.cv * 100).toFixed(1)}%), p99 ${formatMs(cell.latencyMs.p99)} ms, probe p99 ${formatMs(cell.probeLatencyMs.p99)} ms`;
  const notes = [...(cell.status === 'invalid' ? [`INVALID: ${cell.reason ?? ''}`] : []), ...cell.flags];
  return `${name}: ${figures}${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}`;
}
