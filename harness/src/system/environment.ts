import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import type { Environment } from '../model/environment.ts';
import { measureFirstTouch } from './first-touch.ts';
import { REPO_ROOT } from './paths.ts';

/** Where the numbers came from: machine, OS, code revision and load generator. */
export function environment(): Environment {
  return {
    os: osName(),
    kernel: os.release(),
    cpu: machineCpus(),
    memoryBytes: os.totalmem(),
    commit: git(['rev-parse', 'HEAD']) ?? 'unknown',
    // Tracked files only: results and generated data are git-ignored and change every run.
    dirty: (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
    loadGenerator: { name: 'autocannon', version: autocannonVersion() },
    harnessNode: process.versions.node,
    ...firstTouch(),
  };
}

/** What fresh memory costs here (a VM may pay its host's page fault too): ~80 ms, once a run. */
function firstTouch(): Pick<Environment, 'memoryFirstTouch'> {
  const measured = measureFirstTouch();
  return measured === undefined ? {} : { memoryFirstTouch: measured };
}

/**
 * The machine's CPUs, not the harness's own affinity: the fingerprint is taken after the
 * harness may have pinned itself to one CPU (pinning), and availableParallelism() follows
 * that mask, so a 16-CPU machine was recorded as 1.
 */
export function machineCpus(): { model: string; count: number; available: number } {
  const cpus = os.cpus();
  return { model: cpus[0]?.model.trim() ?? 'unknown', count: cpus.length, available: os.availableParallelism() };
}

function osName(): string {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release)?.[1];
    if (pretty !== undefined) return `${pretty} (${os.arch()})`;
  } catch {
    // not Linux, or no os-release
  }
  return `${os.type()} (${os.arch()})`;
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export function autocannonVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('autocannon/package.json') as { version: string }).version;
}
