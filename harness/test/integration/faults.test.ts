// What the harness does when things go wrong, on real processes; a server killed or stopped
// mid-run is in hung-dead.test.ts, on every runtime. Each would fail if the behaviour regressed.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exitCode } from '../../src/bench/bench.ts';
import { parsePlan } from '../../src/bench/plan.ts';
import type { Report } from '../../src/model/report.ts';
import { runtimeSpec } from '../../src/servers/runtimes.ts';
import { groupAlive, startServer, stopAllServers } from '../../src/servers/server.ts';
import { Interrupted } from '../../src/cli/interrupt.ts';
import { SAME_REQUEST_MS } from '../../src/cli/command.ts';
import { cellOf, ended, isAlive, listeningPorts, processesMentioning, processTree, recordingProgress, stderrWatch } from './helpers.ts';
import { benchRun } from './bench-run.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

let tmp: string;
const HARNESS = resolve(import.meta.dirname, '../..');
const dataFlags = () => ['--data-dir', join(tmp, 'data'), '--file-count', '4', '--file-size', '65536'];
// --quick for its lighter host check: the flags after it set everything else the tests read.
const short = ['--quick', '--runs', '1', '--duration', '0.5', '--warmup', '0', '--sleep-ms', '5'];
let outCount = 0;
const out = () => join(tmp, `out-${++outCount}`);

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-faults-'));
});
afterEach(async () => {
  delete process.env.BENCH_BUN_BIN;
  delete process.env.BENCH_NODE_BIN;
  await stopAllServers();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function waitUntil(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

function fakeBinary(name: string, script: string): string {
  const path = join(tmp, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('a runtime missing or broken', () => {
  it('a missing binary is skipped with the reason; the others run; exit 0 unless --strict', async () => {
    process.env.BENCH_BUN_BIN = join(tmp, 'no-such-bun');
    const plan = parsePlan([
      '--runtimes',
      'bun,node',
      '--scenarios',
      'sleep',
      '--modes',
      'async',
      ...short,
      ...dataFlags(),
      '--out',
      out(),
    ]);
    const { report } = await benchRun(plan, { progress: recordingProgress() });
    expect(report.runtimes[0]).toMatchObject({ name: 'bun', status: 'skipped', reason: expect.stringContaining('no-such-bun') });
    expect(report.runtimes[1]).toMatchObject({ name: 'node', status: 'ok' });
    expect(report.results.map((c) => `${c.runtime}/${c.status}`)).toEqual(['node/ok']);
    expect(exitCode(report, false)).toBe(0);
    expect(exitCode(report, true)).toBe(1);
  });
});

/**
 * One run for the two runtimes that cannot be measured, each for its own reason: Bun's binary
 * exits before ready, Node's /health names another pid. Neither measures anything, so the run is
 * "nothing ran" whichever fails; each test below reads its runtime's part. One run's start and
 * host check instead of two.
 */
let unmeasurable: Promise<{ report: Report; dataDir: string }> | undefined;
function unmeasurableRun(): Promise<{ report: Report; dataDir: string }> {
  unmeasurable ??= (async () => {
    process.env.BENCH_BUN_BIN = fakeBinary(
      'broken-bun',
      'if [ "$1" = --version ]; then echo 9.9.9; exit 0; fi\necho "boom: cannot start" >&2\nexit 3',
    );
    // A wrapper that runs the real server as its child: /health then names the child's pid.
    const real = runtimeSpec('node').binary;
    process.env.BENCH_NODE_BIN = fakeBinary('wrapped-node', `"${real}" "$@" &\nwait`);
    const plan = parsePlan(['--runtimes', 'bun,node', '--scenarios', 'sleep', ...short, ...dataFlags(), '--out', out()]);
    const { report } = await benchRun(plan, { progress: recordingProgress() });
    return { report, dataDir: join(tmp, 'data') };
  })();
  return unmeasurable;
}

describe('a runtime that cannot be measured', () => {
  it('a server that exits before ready fails its runtime with the first lines of its stderr; nothing ran: exit 1', async () => {
    const { report } = await unmeasurableRun();
    const bun = report.runtimes.find((r) => r.name === 'bun');
    expect(bun).toMatchObject({ name: 'bun', version: '9.9.9', status: 'failed' });
    expect(bun!.reason).toMatch(/exited before ready \(exit code 3\): boom: cannot start/);
    expect(report.results.filter((c) => c.runtime === 'bun').map((c) => c.status)).toEqual(['failed', 'failed']);
    expect(cellOf(report, 'bun', 'sleep', 'sync').reason).toMatch(/server did not start: .*boom/);
    expect(exitCode(report, false)).toBe(1);
  });

  it('never a server it did not start: refuses a server whose /health names another pid, and leaves nothing of it running', async () => {
    const { report, dataDir } = await unmeasurableRun();
    const node = report.runtimes.find((r) => r.name === 'node');
    expect(node!.status).toBe('failed');
    expect(node!.reason).toMatch(/not the node hono server with pid \d+: refusing to measure it/);
    const cells = report.results.filter((c) => c.runtime === 'node');
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) expect(cell.status).toBe('failed');
    expect(processesMentioning(dataDir)).toEqual([]);
  });
});

/**
 * The plan the signal tests interrupt: 9 cells on every runtime (hello's baseline, sleep's sync
 * and async), one short run each and no warm-up. The signal is sent once the first group of
 * cells (hello) has finished, so every second spent measuring them was only waiting. Not hello's
 * raw mode: its three servers would start with the group and, the group being over when the
 * signal comes, be stopped by its end, not by the signal.
 */
const QUICK_FLAGS = [
  ...['--quick', '--runs', '1', '--duration', '0.1', '--warmup', '0'],
  ...['--scenarios', 'hello,sleep', '--modes', 'baseline,sync,async'],
];
const QUICK_CELLS = 9;

/** A bench command started, once its first cell is done: the child, its exit, its stderr so far. */
async function untilFirstCell(child: ChildProcessByStdio<null, Readable, Readable>) {
  const exited = ended(child);
  const { text, seen } = stderrWatch(child, 'bench');
  await seen(/^node hello\/baseline: /m);
  return { child, exited, stderr: text };
}

describe('Ctrl-C or SIGTERM on the harness', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s stops everything, writes an interrupted report with the finished cells, exits %i',
    async (signal, code) => {
      const dir = out();
      const cli = resolve(HARNESS, 'src/bench-cli.ts');
      const { child, exited } = await untilFirstCell(
        spawn(process.execPath, [...HARNESS_NODE_ARGS, cli, ...QUICK_FLAGS, ...dataFlags(), '--out', dir], {
          cwd: HARNESS,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      const tree = processTree(child.pid!);
      expect(tree.length).toBeGreaterThan(2); // the harness, its probe, a server at least
      child.kill(signal);
      expect(await exited).toBe(code);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
      expect(report.status).toBe('interrupted');
      expect(report.results.length).toBeGreaterThanOrEqual(1);
      expect(report.results.length).toBeLessThan(QUICK_CELLS);
      expect(cellOf(report, 'node', 'hello', 'baseline').status).toBe('ok');
      expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(/interrupted/i);
      // Nothing the run started is alive afterwards (tsx's esbuild helper may take a moment to
      // notice its parent is gone).
      await waitUntil(() => tree.filter(isAlive).length === 0, 3_000);
      expect(tree.filter(isAlive)).toEqual([]);
      expect(processesMentioning(join(tmp, 'data'))).toEqual([]);
    },
    60_000,
  );
});

describe('a signal to the whole process group, through the README command line', () => {
  it('is one request to stop: the finished cells kept, no process left', async () => {
    const dir = out();
    // As `timeout -s INT`, a CI runner's cancel or a supervisor sends it: the harness gets the
    // signal directly and again through npx, pnpm and tsx, each forwarding it.
    const { child, exited, stderr } = await untilFirstCell(
      spawn('npx', ['--yes', 'pnpm@10.34.9', 'bench:all', ...QUICK_FLAGS, ...dataFlags(), '--out', dir], {
        cwd: resolve(HARNESS, '..'),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    const tree = processTree(child.pid!);
    // The harness itself: the node process that runs bench-cli.ts (with tsx as its loader, no
    // relaying parent between it and pnpm).
    const harness = tree.filter((pid) => processesMentioning('src/bench-cli.ts').includes(pid));
    expect(harness).toHaveLength(1);
    process.kill(-child.pid!, 'SIGINT');
    // What a forwarder adds a few milliseconds later, whether or not this host's wrappers did
    // (sooner, the kernel would merge it with the first: a pending signal is not queued twice).
    await new Promise((r) => setTimeout(r, 30));
    process.kill(harness[0]!, 'SIGINT');
    await exited;
    // npx and pnpm stop on the signal too, and on a loaded host before the harness has written
    // its report: the report is the harness's to write, so its end is what is waited for.
    await waitUntil(() => !isAlive(harness[0]!), 20_000);
    expect(stderr()).toMatch(/SIGINT: stopping the load/);
    expect(stderr()).not.toMatch(/again: stopping at once/);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.status).toBe('interrupted');
    for (const runtime of ['node', 'bun', 'deno']) expect(cellOf(report, runtime, 'hello', 'baseline').status).toBe('ok');
    await waitUntil(() => tree.filter(isAlive).length === 0, 3_000);
    expect(tree.filter(isAlive)).toEqual([]);
    expect(processesMentioning(join(tmp, 'data'))).toEqual([]);
  }, 60_000);
});

describe('a second Ctrl-C', () => {
  it('stops at once: exit 130, the finished cells written, no process left', async () => {
    const dir = out();
    const cli = resolve(HARNESS, 'src/bench-cli.ts');
    const child = spawn(process.execPath, [...HARNESS_NODE_ARGS, cli, ...QUICK_FLAGS, ...dataFlags(), '--out', dir], {
      cwd: HARNESS,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = ended(child);
    const { text, seen } = stderrWatch(child, 'bench');
    await seen(/^node hello\/baseline: /m);
    // The sleep cells' servers are up once one is checked (between groups, the hello servers may
    // be gone and the next not started yet).
    await seen(/node sleep\/\w+ check/);
    const tree = processTree(child.pid!);
    const servers = tree.filter((pid) => processesMentioning('--port').includes(pid)).filter(isAlive);
    expect(servers.length).toBeGreaterThan(0);
    // The second request below must come while the first is still being served, however fast the
    // host. Three one-second waits hold Node's server loop, so its SIGTERM handler, and the
    // graceful stop that waits for its exit, run a second or more after the first request
    // (SIGSTOP would not hold it: the stop sends SIGCONT after its SIGTERM).
    const node = servers.find((pid) => processesMentioning('node/server.ts').includes(pid));
    const [port] = listeningPorts(node!);
    expect(port).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      fetch(`http://127.0.0.1:${port}/sleep/sync?ms=1000`, { signal: AbortSignal.timeout(10_000) }).catch(() => {});
    }
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    await seen(/SIGINT: stopping the load/);
    // A second request, not the first one's echo: after the acknowledgement has been read.
    await new Promise((r) => setTimeout(r, SAME_REQUEST_MS + 100));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(text()).toMatch(/SIGINT again: stopping at once/);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.status).toBe('interrupted');
    expect(cellOf(report, 'node', 'hello', 'baseline').status).toBe('ok');
    // Killed before the exit; a killed child is gone once the kernel has reaped it (a few ms).
    await waitUntil(() => servers.filter(isAlive).length === 0, 3_000);
    expect(servers.filter(isAlive)).toEqual([]);
    await waitUntil(() => tree.filter(isAlive).length === 0, 3_000);
    expect(tree.filter(isAlive)).toEqual([]);
  }, 60_000);

  it('a server start-up in progress gives up at the abort, not after its readiness deadline', async () => {
    const pidFile = join(tmp, 'slow-start.pid');
    const binary = fakeBinary('slow-start', `echo $$ > ${pidFile}\nsleep 60`);
    const spec = { ...runtimeSpec('node'), binary, args: () => [] };
    const controller = new AbortController();
    const started = Date.now();
    const starting = startServer(spec, { raw: false, serverArgs: [], signal: controller.signal });
    await waitUntil(() => existsSync(pidFile), 5_000);
    controller.abort();
    await expect(starting).rejects.toBeInstanceOf(Interrupted);
    // Well inside the 30 s readiness deadline it used to wait out.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(groupAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});

describe('invalid flags', () => {
  it.each([
    [['--duration', '0'], 'bench: --duration must be a number from 0.1 to 3600, got "0"'],
    [['--connections', '20000'], 'bench: --connections must be an integer from 1 to 10000, got "20000"'],
    [
      ['--scenarios', 'nope'],
      'bench: --scenarios: unknown "nope"; accepted: hello, hash, file, fib, sleep, gzip, json, kdf, regex, render, sqlite, starve, catalogue',
    ],
    [['--out', '/proc/version/results'], 'bench: --out /proc/version/results is not a writable folder: ENOTDIR'],
  ])('%j: one line, exit 2, nothing started', async (argv, line) => {
    // A data folder of its own: a server started anyway would name it, and data made would be in it.
    const dataDir = join(tmp, `flags-${++outCount}`);
    const args = [...argv, '--data-dir', dataDir];
    const child = spawn(process.execPath, [...HARNESS_NODE_ARGS, resolve(HARNESS, 'src/bench-cli.ts'), ...args], { cwd: HARNESS });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const status = await ended(child);
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(line);
    expect(processesMentioning(dataDir)).toEqual([]);
    expect(existsSync(dataDir)).toBe(false);
  });
});
