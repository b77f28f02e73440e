// ApacheBench (`ab`, Debian's apache2-utils): seeds 000 and 003 measured with it, so their
// replays use it too. Parsing is a pure function over ab's text output, tested on real outputs.
import { execFile, spawnSync } from 'node:child_process';

export interface ApacheBenchResult {
  concurrency: number;
  timeTakenSec: number;
  complete: number;
  failed: number;
  /** Answers outside 2xx (a bad request, an overloaded server): ab counts them as complete. */
  non2xx: number;
  keepAliveRequests: number;
  requestsPerSec: number;
  /** ab's "Time per request (mean)": concurrency x wall time / requests. */
  timePerRequestMs: number;
  /** Mean of ab's "Connection Times" rows, ms. */
  connectMeanMs: number;
  processingMeanMs: number;
  totalMeanMs: number;
  /** "Percentage of the requests served within a certain time": percent -> ms. */
  percentilesMs: Record<string, number>;
}

function field(text: string, label: string): number | undefined {
  const match = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function connectionMean(text: string, row: string): number {
  const match = new RegExp(`^${row}:\\s+\\d+\\s+([\\d.]+)`, 'm').exec(text);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]);
}

/** Parses ab's report; throws when the output is not one (ab failed before measuring). */
export function parseApacheBench(text: string): ApacheBenchResult {
  const complete = field(text, 'Complete requests');
  const rps = field(text, 'Requests per second');
  const tpr = field(text, 'Time per request');
  if (complete === undefined || rps === undefined || tpr === undefined) {
    const last = text.trim().split('\n').slice(-2).join(' | ');
    throw new Error(`ab printed no report${last === '' ? '' : `: ${last}`}`);
  }
  const percentilesMs: Record<string, number> = {};
  for (const match of text.matchAll(/^\s+(\d+)%\s+(\d+)/gm)) percentilesMs[match[1] as string] = Number(match[2]);
  return {
    concurrency: field(text, 'Concurrency Level') ?? Number.NaN,
    timeTakenSec: field(text, 'Time taken for tests') ?? Number.NaN,
    complete,
    failed: field(text, 'Failed requests') ?? 0,
    non2xx: field(text, 'Non-2xx responses') ?? 0,
    keepAliveRequests: field(text, 'Keep-Alive requests') ?? 0,
    requestsPerSec: rps,
    timePerRequestMs: tpr,
    connectMeanMs: connectionMean(text, 'Connect'),
    processingMeanMs: connectionMean(text, 'Processing'),
    totalMeanMs: connectionMean(text, 'Total'),
    percentilesMs,
  };
}

export interface ApacheBenchOptions {
  url: string;
  requests: number;
  concurrency: number;
  keepAlive: boolean;
  /** Per-request timeout (ab -s), seconds. */
  timeoutSec: number;
  signal?: AbortSignal;
  binary?: string;
}

/** The ab flags the seeds used, in their order: `-k -c 20 -n 250`, `-n 1000 -c 1000`. */
export function apacheBenchArgs(o: Pick<ApacheBenchOptions, 'url' | 'requests' | 'concurrency' | 'keepAlive' | 'timeoutSec'>): string[] {
  // -r: a socket error is counted, not fatal (ab otherwise aborts a -c 1000 run on one reset).
  return [...(o.keepAlive ? ['-k'] : []), '-c', String(o.concurrency), '-n', String(o.requests), '-s', String(o.timeoutSec), '-r', o.url];
}

/** Runs ab once and parses its report; rejects with ab's own last lines when it fails. */
export function runApacheBench(options: ApacheBenchOptions): Promise<ApacheBenchResult> {
  return new Promise((resolve, reject) => {
    execFile(
      options.binary ?? 'ab',
      apacheBenchArgs(options),
      { encoding: 'utf8', maxBuffer: 4 * 1024 * 1024, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      (error, stdout, stderr) => {
        try {
          resolve(parseApacheBench(stdout));
        } catch (parseError) {
          const why = (stderr.trim().split('\n').at(-1) ?? '') || (error?.message ?? '');
          reject(new Error(`${(parseError as Error).message}${why === '' ? '' : `; ${why}`}`));
        }
      },
    );
  });
}

/** ab's version, or why it cannot run here (then the ab claims are skipped with that reason). */
export function probeApacheBench(binary = 'ab'): { ok: true; version: string } | { ok: false; reason: string } {
  const out = spawnSync(binary, ['-V'], { encoding: 'utf8', timeout: 5_000 });
  if (out.error !== undefined)
    return { ok: false, reason: `ab not found (${(out.error as NodeJS.ErrnoException).code ?? out.error.message}); install apache2-utils` };
  const version = /Version (\S+)/.exec(out.stdout)?.[1];
  return version === undefined ? { ok: false, reason: `ab -V printed no version: ${out.stdout.slice(0, 80)}` } : { ok: true, version };
}
