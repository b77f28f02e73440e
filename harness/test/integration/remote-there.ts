/**
 * The remote tests' tools: build the two hosts for a suite (withTwoHosts), run the harness in the
 * load namespace against the server host, and look at what is left running on either side.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import type { Report } from '../../src/model/report.ts';
import { processesMentioning, untilCount, untilNone } from './helpers.ts';
import { makeTwoHosts, type TwoHosts, twoHostsUnavailable } from './two-hosts.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

/** Why two hosts cannot be built on this machine (the suites then skip, saying so), or undefined. */
export const unavailable = twoHostsUnavailable();
if (unavailable !== undefined) console.warn(`remote (ssh) tests SKIPPED: ${unavailable}`);

let current: TwoHosts | undefined;

/** The two hosts the tools act on, once made. */
export function hosts(): TwoHosts {
  if (current === undefined) throw new Error('remote-there: no two hosts (withTwoHosts is called inside the suite)');
  return current;
}

/** Called inside a suite: builds the two hosts before its tests, takes them down and removes what the runs wrote after. */
export function withTwoHosts(): void {
  beforeAll(async () => {
    current = await makeTwoHosts();
  }, 30_000);
  afterAll(() => {
    current?.close();
    current = undefined;
    for (const dir of outDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
}

export const HARNESS = resolve(import.meta.dirname, '../..');

/** Folders the runs wrote into, removed at the end (withTwoHosts). */
export const outDirs: string[] = [];

/** `ip` arguments that run one of the harness's commands in the load namespace against the server host. */
export function thereArgs(cli: string, extra: string[]): string[] {
  const h = hosts();
  return [
    'netns',
    'exec',
    h.loadNs,
    process.execPath,
    ...HARNESS_NODE_ARGS,
    cli,
    '--server-host',
    h.host,
    '--ssh-config',
    h.sshConfig,
    ...extra,
  ];
}

/** thereArgs for the bench, writing into a folder of its own (removed at the end). */
export function benchArgs(extra: string[]): string[] {
  const out = mkdtempSync(join(tmpdir(), 'bench-remote-out-'));
  outDirs.push(out);
  return thereArgs('src/bench-cli.ts', ['--cross-check', 'none', '--out', out, ...extra]);
}

export function runBenchThere(extra: string[]): { status: number | null; stderr: string; report: Report | undefined } {
  const args = benchArgs(extra);
  const res = spawnSync('ip', args, { cwd: HARNESS, encoding: 'utf8', timeout: 120_000 });
  let report: Report | undefined;
  try {
    report = JSON.parse(readFileSync(join(args[args.indexOf('--out') + 1] ?? '', 'report.json'), 'utf8')) as Report;
  } catch {
    report = undefined;
  }
  return { status: res.status, stderr: `${res.stdout}\n${res.stderr}`, report };
}

/** `ip ...` as spawnSync runs it, without blocking, so independent runs can wait side by side. */
export function runThere(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('ip', args, { cwd: HARNESS, timeout: 120_000 });
    let [stdout, stderr] = ['', ''];
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** Waits until nothing but the sshd listener is left in the server namespace. */
export function serverNsEmpty(ms: number): Promise<number[]> {
  return untilNone(() => hosts().serverNsProcesses(), ms);
}

/** The ssh clients of this test (they name its ssh config) once they have all ended. */
export function localSshGone(ms: number): Promise<number[]> {
  return untilNone(() => processesMentioning(hosts().sshConfig).filter((pid) => pid !== hosts().sshdPid), ms);
}

/** Processes of ours in the server namespace (servers, their wrapper and its watchdog), not sshd's. */
export function oursThere(pattern = /server\.ts|bench-remote|head\0-c/): number[] {
  return hosts()
    .serverNsProcesses()
    .filter((pid) => {
      try {
        return pattern.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
}

export function serverRunningThere(): boolean {
  return oursThere(/server\.ts/).length > 0;
}

/**
 * How long a bench over ssh may take to reach its first cell: ssh, the checks there, the round
 * trips and the servers' start, beside two other test files on two loaded cores.
 */
const START_WITHIN_MS = 60_000;

/**
 * A test that fails before it stops its bench must not leave it measuring beside the next test:
 * killed, the harness's ssh channels close and the remote side ends with them.
 */
function killedWhenDone(child: ChildProcess): void {
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

/** Starts a long bench, resolves once its first measured run is under way on the server host. */
export async function startLongBench(extra: string[] = [], out?: (args: string[]) => void): Promise<ChildProcess> {
  const args = benchArgs([
    '--runtimes',
    'node',
    '--scenarios',
    'hello',
    '--modes',
    'baseline',
    // --quick for its lighter host check (the first cell comes sooner): the flags after it set the runs.
    '--quick',
    '--duration',
    '30',
    '--runs',
    '3',
    '--warmup',
    '0.1',
    '--warmup-max',
    '0.1',
    ...extra,
  ]);
  out?.(args);
  const { child } = await benchAtCell(args, 'hello/baseline');
  expect(serverRunningThere()).toBe(true);
  return child;
}

/**
 * Starts the bench that `args` describe (benchArgs) and resolves once it has checked `cell` and a
 * server of ours runs there, 1.5 s on: past the check and a short warm-up, inside the cell's
 * first run (the plain log shows no run phases). Were a slow machine still warming up, each
 * test's behaviour would be the same. `log` reads what the bench printed so far.
 */
export async function benchAtCell(args: string[], cell: string): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawn('ip', args, { cwd: HARNESS, stdio: ['ignore', 'pipe', 'pipe'] });
  killedWhenDone(child);
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (log += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (log += c));
  const until = Date.now() + START_WITHIN_MS;
  while (!(log.includes(`${cell} check`) && serverRunningThere())) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`the bench did not get to ${cell}: ${log.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1_500));
  return { child, log: () => log };
}

/**
 * The serving members of a group there once it has `count`: on a loaded machine a member may be
 * seen still starting, or a server started before the group (the round-trip measurement's) still
 * ending, so the count is waited for (up to 10 s), not read once. It returns the last reading.
 */
export async function servingGroupThere(count: number): Promise<number[]> {
  return untilCount(servingMembersThere, count, 10_000, 200);
}

/** The serving members of a process group there: server processes that are not their group's leader. */
export function servingMembersThere(): number[] {
  return oursThere(/runtimes\/node\/server\.ts/).filter((pid) => {
    // A server seen ending (see above) can be gone before its /proc files are read: not a member.
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      return pgid !== pid && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bench-remote');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH') return false;
      throw error;
    }
  });
}

export const GROUP = ['--processes', '2'];

/**
 * Why `tc ... netem` cannot be used here (a kernel without sch_netem), or undefined: tried on
 * the loopback of a namespace made for the question and removed at once.
 */
export function netemUnavailable(): string | undefined {
  const ns = `bench-netem-probe-${process.pid}`;
  const made = spawnSync('ip', ['netns', 'add', ns], { encoding: 'utf8' });
  if (made.status !== 0) return `ip netns add failed: ${(made.stderr || made.error?.message || '').trim().split('\n')[0]}`;
  try {
    const res = spawnSync('tc', ['-n', ns, 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms'], { encoding: 'utf8' });
    if (res.status !== 0) return `tc netem unavailable: ${(res.stderr || res.error?.message || '').trim().split('\n')[0]}`;
    return undefined;
  } finally {
    spawnSync('ip', ['netns', 'delete', ns]);
  }
}

export const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));
