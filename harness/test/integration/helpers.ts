import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Progress } from '../../src/bench/progress.ts';
import type { CalibrateOptions } from '../../src/calibrate/calibrate.ts';
import type { CellResult } from '../../src/model/cell.ts';
import type { Report } from '../../src/model/report.ts';

/**
 * Server flags for a test that asks only for the seeds' routes: the catalogue modules left out, as
 * the bench leaves out those it does not plan. Each module's setup() runs before /health answers,
 * in the process and in each pool worker, and sqlite's (a table of 500,000 rows) is about two
 * thirds of a Node server's start-up CPU.
 */
export const SEEDS_ONLY: readonly string[] = ['--scenarios', 'hash,file,fib,sleep'];

/** The calibration in its shortest form, on raw Bun (the fastest to start): calibrate.test.ts and calibrate-cli.test.ts. */
export const SHORT_CALIBRATION: CalibrateOptions = {
  runtimes: ['bun'],
  servers: ['raw'],
  durationSec: 0.5,
  runs: 1,
  connections: [10],
  autocannonWorkers: [0],
  wrkThreads: 2,
  wrkConnections: 50,
  warmupSec: 0.2,
};

/** A Progress that keeps the plain lines, for assertions. */
export function recordingProgress(): Progress & { lines: string[] } {
  const lines: string[] = [];
  return { lines, update: () => {}, log: (line) => lines.push(line), done: () => {} };
}

/**
 * The TCP ports `pid` listens on (IPv4 and IPv6): its socket inodes matched against the kernel's
 * socket tables, as `ss -ltnp` does. A server started with `--port 0` names its port nowhere else.
 */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:[')) inodes.add(target.slice(8, -1));
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue; // no IPv6 here
    }
    for (const line of text.split('\n').slice(1)) {
      const field = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
      if (field[3] === '0A' && inodes.has(field[9] ?? '')) ports.add(Number.parseInt(field[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports];
}

/**
 * A child's exit code once its output has been read: 'close' (stdout and stderr ended) can come
 * after 'exit'. A process the child left holding those pipes would hold 'close' back for as long
 * as it lives, so `graceMs` after the exit the code is given anyway, with a warning saying so.
 */
export function ended(child: ChildProcess, graceMs = 5_000): Promise<number | null> {
  return new Promise((resolve) => {
    let closed = false;
    child.on('close', (code) => {
      closed = true;
      resolve(code);
    });
    child.on('exit', (code) => {
      setTimeout(() => {
        if (closed) return;
        console.warn(`child ${child.pid} exited (${code}), its output still open ${graceMs} ms later: a process it started holds it`);
        resolve(code);
      }, graceMs).unref();
    });
  });
}

/** Every process whose command line mentions `needle` (e.g. a test's temporary folder). */
export function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * The browser processes started with BENCH_BROWSER_TAG=`tag` in their environment, which every
 * child of the browser inherits (browser.test.ts, browser-cli.test.ts).
 */
export function browserProcesses(tag: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // esbuild's service process (the page bundler) inherits the tag too; it is not a browser.
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'esbuild') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`BENCH_BROWSER_TAG=${tag}`)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** A process and all its descendants, from /proc. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const visit = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie is dead for our purposes: it runs nothing and holds no port.
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * A server that serves one request at a time, as a queue sees it (M/D/1), measured on `route`
 * after a POST /reset:
 * - routeMs: the handler's own time (/stats avgMs) over an idle step of 10 req/s for `idleSec`
 *   (constant arrivals: nothing waits);
 * - serviceMs: how long a request holds the server, from its throughput when it is never idle
 *   (constant arrivals at 1.3x what routeMs allows, 3 s: 1000 / the rate answers came back at):
 *   routeMs plus the HTTP handling around it, which avgMs leaves out and which grows when the
 *   machine is busy (about a millisecond a request on a loaded 2-core VM, enough to move the
 *   M/D/1 mean at 80 % load by a third);
 * - outsideMs: what a response costs outside the queue (the idle step's mean less serviceMs).
 */
export async function queueService(
  serverUrl: string,
  route: string,
  runStep: (ratePerSec: number, durationSec: number) => Promise<{ achievedPerSec: number; completed: number; latencyMs: { mean: number } }>,
  idleSec: number,
): Promise<{ routeMs: number; serviceMs: number; outsideMs: number }> {
  await fetch(`${serverUrl}/reset`, { method: 'POST' });
  const idle = await runStep(10, idleSec);
  const stats = (await (await fetch(`${serverUrl}/stats`)).json()) as { routes: Record<string, { avgMs: number }> };
  const routeMs = stats.routes[route]?.avgMs ?? 0;
  const serviceMs = await saturatedServiceMs(runStep, routeMs);
  return { routeMs, serviceMs, outsideMs: Math.max(0, idle.latencyMs.mean - serviceMs) };
}

/** How long each request holds the server, from its throughput over 3 s at 1.3 times what its route can serve. */
export async function saturatedServiceMs(
  runStep: (ratePerSec: number, durationSec: number) => Promise<{ achievedPerSec: number; completed: number }>,
  routeMs: number,
): Promise<number> {
  const overloadPerSec = (1.3 * 1000) / Math.max(routeMs, 1);
  const saturated = await runStep(overloadPerSec, 3);
  if (saturated.completed < 10 || saturated.achievedPerSec <= 0)
    throw new Error(`a saturating step of ${overloadPerSec} req/s for 3 s got ${saturated.completed} answers: no service time`);
  return 1000 / saturated.achievedPerSec;
}

/** The report's cell for runtime, scenario and mode; a missing cell fails the test by its name. */
export function cellOf(report: Report, runtime: string, scenario: string, mode: string): CellResult {
  const cell = report.results.find((c) => c.runtime === runtime && c.scenario === scenario && c.mode === mode);
  if (cell === undefined) throw new Error(`no ${runtime} ${scenario}/${mode} cell`);
  return cell;
}

/** Polls `find` until it finds no process or `ms` has passed; returns what it found last (empty once all are gone). */
export async function untilNone(find: () => number[], ms: number, everyMs = 100): Promise<number[]> {
  return untilCount(find, 0, ms, everyMs);
}

/** Reads `find` every `everyMs` until it returns `count` items or `ms` have passed; returns the last reading. */
export async function untilCount(find: () => number[], count: number, ms: number, everyMs = 100): Promise<number[]> {
  const until = Date.now() + ms;
  let found = find();
  while (found.length !== count && Date.now() < until) {
    await new Promise((r) => setTimeout(r, everyMs));
    found = find();
  }
  return found;
}

/**
 * A child's stderr as it arrives, and a wait for a stage of its run: `seen(pattern)` resolves once
 * what the child wrote matches, and rejects (with what it wrote) if the child exits first, so a
 * test that acts at a stage neither waits out its own timeout nor acts before the stage.
 */
export function stderrWatch(child: ChildProcess, command: string): { text: () => string; seen: (pattern: RegExp) => Promise<void> } {
  let stderr = '';
  // Registered before any wait's listener: each chunk is added before a wait looks at it.
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const seen = (pattern: RegExp) =>
    new Promise<void>((resolveSeen, reject) => {
      const look = () => pattern.test(stderr) && resolveSeen();
      child.stderr?.on('data', look);
      child.on('exit', () => reject(new Error(`${command} exited before ${pattern}: ${stderr}`)));
      look();
    });
  return { text: () => stderr, seen };
}
