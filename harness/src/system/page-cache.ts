import { spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Cold page cache for the file scenario: evict the data files before a run and check, with
 * util-linux fincore, that they really left the cache. Linux only; elsewhere the checks report
 * "not supported" (a reason, or undefined) rather than throwing.
 *
 * Eviction prefers GNU dd's `iflag=nocache count=0`, which calls posix_fadvise(DONTNEED) on the
 * whole file: no root needed and nothing else on the machine loses its cache. Only when dd cannot
 * evict does it fall back to /proc/sys/vm/drop_caches, which needs root and empties the cache of
 * every process (so it also slows whatever else runs on the machine).
 */

export type EvictMethod = 'fadvise' | 'drop_caches';

export type EvictResult = { ok: true; method: EvictMethod } | { ok: false; reason: string };

export interface EvictVerification {
  ok: boolean;
  method: EvictMethod | undefined;
  /** Fraction (0..1) of the files' bytes in the page cache; undefined without fincore. */
  residentBefore: number | undefined;
  residentAfter: number | undefined;
  reason?: string;
}

export type ColdCacheSupport = { ok: true; method: EvictMethod } | { ok: false; reason: string };

/** One row of `fincore --json --bytes`: bytes of `file` in the page cache (`res`) and its size. */
export interface FincoreEntry {
  file: string;
  res: number;
  size: number;
}

// At most eight dd processes (or fdatasync calls) at a time: no burst of 100 forks or flushes on
// a machine that is about to benchmark.
const MAX_PARALLEL = 8;
const DROP_CACHES = '/proc/sys/vm/drop_caches';
const PROBE_BYTES = 1024 * 1024;

/** Parses `fincore --json --bytes` output. Throws on anything that is not that shape. */
export function parseFincore(text: string): FincoreEntry[] {
  const parsed: unknown = JSON.parse(text);
  const rows = (parsed as { fincore?: unknown } | null)?.fincore;
  if (!Array.isArray(rows)) throw new Error('fincore output has no "fincore" array');
  return rows.map(parseFincoreRow);
}

function parseFincoreRow(row: unknown): FincoreEntry {
  const { file, res, size } = (row ?? {}) as Record<string, unknown>;
  if (typeof file !== 'string') throw new Error(`fincore row without a file name: ${JSON.stringify(row)}`);
  return { file, res: byteCount(res, 'res', file), size: byteCount(size, 'size', file) };
}

// util-linux before 2.33 printed every JSON value as a string, so "4096" is accepted too.
function byteCount(value: unknown, column: string, file: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    throw new Error(`fincore ${column} for ${file} is not a byte count: ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * Resident bytes over total bytes. `res` counts whole pages, so a cached partial last page would
 * push a file past 100%; it is capped at the file's size. 0 when there are no bytes at all.
 */
export function residentFractionOf(entries: readonly FincoreEntry[]): number {
  let resident = 0;
  let total = 0;
  for (const entry of entries) {
    resident += Math.min(entry.res, entry.size);
    total += entry.size;
  }
  return total === 0 ? 0 : resident / total;
}

/**
 * Fraction of the files' bytes now in the page cache, from one fincore call for all of them.
 * Undefined when it cannot be known (no fincore, or files the caller can neither write nor owns);
 * rejects when fincore fails (e.g. a missing file), since a fraction over fewer files than asked
 * for would read as a false success.
 */
export async function residentFraction(paths: string[]): Promise<number | undefined> {
  return (await measureResident(paths)).fraction;
}

type Measurement = { fraction: number } | { fraction: undefined; reason: string };

async function measureResident(paths: string[]): Promise<Measurement> {
  if (paths.length === 0) return { fraction: 0 };
  const hidden = await firstUnobservable(paths);
  if (hidden !== undefined) {
    return { fraction: undefined, reason: `cannot see the cache of ${hidden}: caller neither owns nor can write it` };
  }
  const result = await run('fincore', ['--json', '--bytes', '--', ...paths]);
  if (result === undefined) return { fraction: undefined, reason: 'fincore (util-linux) is not installed' };
  if (result.code !== 0) throw new Error(`fincore failed (exit ${result.code}): ${result.stderr.trim()}`);
  return { fraction: residentFractionOf(parseFincore(result.stdout)) };
}

// Since Linux 5.0 mincore(), which fincore uses, reports every page as cached unless the caller
// owns the file or may write it (a side-channel fix), so fincore would call any such file warm.
async function firstUnobservable(paths: string[]): Promise<string | undefined> {
  const uid = process.getuid?.();
  if (uid === 0) return undefined;
  const visible = await mapLimit(paths, MAX_PARALLEL, async (path) => {
    if ((await stat(path)).uid === uid) return true;
    return access(path, constants.W_OK).then(
      () => true,
      () => false,
    );
  });
  return paths.find((_, i) => !visible[i]);
}

/**
 * Evicts the files from the page cache: fadvise through dd, else drop_caches. Rejects when a file
 * cannot be opened, so a missing data file is reported as such and not as "eviction unsupported".
 */
export async function evictFiles(paths: string[]): Promise<EvictResult> {
  // Neither method drops dirty pages, and freshly generated data files are dirty for up to ~30 s.
  await flushToDisk(paths);
  const viaDd = await evictWithDd(paths);
  if (viaDd.ok) return viaDd;
  const viaDrop = await dropAllCaches();
  return viaDrop.ok ? viaDrop : { ok: false, reason: `${viaDd.reason}; ${viaDrop.reason}` };
}

/**
 * Evicts and checks with fincore; ok only when at most `maxResident` of the bytes stay cached.
 * When dd ran but the cache kept the files (a filesystem that ignores the advice), it retries once
 * with drop_caches before giving up.
 */
export async function evictAndVerify(paths: string[], maxResident = 0.05): Promise<EvictVerification> {
  const residentBefore = await residentFraction(paths);
  const evicted = await evictFiles(paths);
  if (!evicted.ok) {
    return { ok: false, method: undefined, residentBefore, residentAfter: residentBefore, reason: evicted.reason };
  }
  let method = evicted.method;
  let after = await measureResident(paths);
  let fallbackFailure = '';
  if (method === 'fadvise' && after.fraction !== undefined && after.fraction > maxResident) {
    const dropped = await dropAllCaches();
    if (dropped.ok) [method, after] = [dropped.method, await measureResident(paths)];
    else fallbackFailure = `; ${dropped.reason}`;
  }
  const base = { method, residentBefore, residentAfter: after.fraction };
  if (after.fraction === undefined) return { ...base, ok: false, reason: `eviction not verified: ${after.reason}` };
  if (after.fraction > maxResident) {
    const still = `${percent(after.fraction)} of the bytes still cached after ${method}`;
    return { ...base, ok: false, reason: `${still} (limit ${percent(maxResident)})${fallbackFailure}` };
  }
  return { ...base, ok: true };
}

/**
 * Whether a cold-cache run can work here: caches a small file, evicts it and checks it left.
 * `dir` should be on the data files' filesystem, since tmpfs, for one, cannot evict at all.
 * Never rejects; the reason says what is missing.
 */
export async function coldCacheSupport(dir: string = tmpdir()): Promise<ColdCacheSupport> {
  let probeDir: string | undefined;
  try {
    probeDir = await mkdtemp(join(dir, 'page-cache-probe-'));
    const file = join(probeDir, 'probe.bin');
    await writeFile(file, randomFillSync(new Uint8Array(PROBE_BYTES)));
    await readFile(file);
    const cached = await measureResident([file]);
    if (cached.fraction === undefined) return { ok: false, reason: cached.reason };
    if (cached.fraction < 0.5) {
      return { ok: false, reason: `a file just read shows ${percent(cached.fraction)} cached: fincore cannot see the cache here` };
    }
    const verified = await evictAndVerify([file]);
    if (verified.ok && verified.method !== undefined) return { ok: true, method: verified.method };
    return { ok: false, reason: verified.reason ?? 'eviction failed' };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  } finally {
    if (probeDir !== undefined) await rm(probeDir, { recursive: true, force: true });
  }
}

/** fdatasync each file; Linux allows it on a read-only descriptor, so no write access is needed. */
async function flushToDisk(paths: string[]): Promise<void> {
  await mapLimit(paths, MAX_PARALLEL, async (path) => {
    const handle = await open(path, 'r');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  });
}

// count=0 makes dd advise DONTNEED for the whole file and, per the coreutils manual, report a
// failed advise in its exit status (with count>0 it would only cover the bytes it copied).
// The files go to a few shells that each run dd over their share: a Node spawn per file costs
// 3-5 ms on a loaded machine (over 300 ms for 100 files), a dd forked by sh well under 1 ms.
// Paths travel as arguments, never through the script text, so no quoting is involved.
const DD_LOOP = 'for f; do dd if="$f" iflag=nocache count=0 status=none || exit $?; done';
const SH_NOT_FOUND = 127;

/** The arguments of the shells (sh) evictWithDd starts for `paths`: at most MAX_PARALLEL, each with its share. */
export function ddShells(paths: readonly string[]): string[][] {
  return chunks(paths, MAX_PARALLEL).map((share) => ['-c', DD_LOOP, 'sh', ...share]);
}

async function evictWithDd(paths: string[]): Promise<EvictResult> {
  const results = await Promise.all(ddShells(paths).map((args) => run('sh', args)));
  if (results.some((r) => r === undefined)) return { ok: false, reason: 'sh is not installed' };
  const failed = results.find((r) => r !== undefined && r.code !== 0);
  if (failed === undefined) return { ok: true, method: 'fadvise' };
  if (failed.code === SH_NOT_FOUND) return { ok: false, reason: 'dd is not installed' };
  return { ok: false, reason: `dd iflag=nocache failed (exit ${failed.code}): ${failed.stderr.trim()}` };
}

/** Splits `items` into at most `count` runs of near-equal length, in order. */
function chunks<T>(items: readonly T[], count: number): T[][] {
  const size = Math.ceil(items.length / count);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// "1" frees the page cache only (not dentries and inodes); callers have flushed their files first.
async function dropAllCaches(): Promise<EvictResult> {
  try {
    await writeFile(DROP_CACHES, '1');
    return { ok: true, method: 'drop_caches' };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: `cannot write ${DROP_CACHES} (needs root): ${message}` };
  }
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; undefined when the binary is not installed. */
function run(command: string, args: string[]): Promise<RunResult | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let spawnFailed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (err: NodeJS.ErrnoException) => {
      spawnFailed = true;
      if (err.code === 'ENOENT') resolve(undefined);
      else reject(err);
    });
    // 'close' also fires after a failed spawn; the 'error' handler has settled that case.
    child.on('close', (code) => {
      if (!spawnFailed) resolve({ code, stdout, stderr });
    });
  });
}

/** Like Promise.all over `items.map(fn)`, with at most `limit` calls in flight. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}
