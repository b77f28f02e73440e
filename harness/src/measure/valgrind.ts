// Valgrind's callgrind as a measuring instrument: a server started under it with collection off,
// switched on around a fixed number of requests, its counters dumped and read back.
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { RuntimeName } from '@bench/app';
import type { RuntimeSpec } from '../servers/runtimes.ts';

const run = promisify(execFile);

/** What to do where Valgrind is missing: the one line the harness prints before exit 2. */
export const VALGRIND_MISSING =
  '--measure instructions needs Valgrind (valgrind and callgrind_control on PATH): on Debian or Ubuntu `apt-get install valgrind`; it runs on Linux x86-64 and arm64 only';

/** Valgrind's version ("3.19.0"), or undefined when valgrind or callgrind_control cannot run here. */
export function valgrindVersion(): string | undefined {
  const version = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  const control = spawnSync('callgrind_control', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0 || control.error !== undefined) return undefined;
  return version.stdout.trim().replace(/^valgrind-/, '');
}

/**
 * The settings that make a runtime's own work repeat from one server process to the next, each
 * chosen by measurement (docs/instructions.md): without them a background compiler or collector
 * thread takes a varying share of the instructions counted. `flags` go to the runtime's own
 * command line, `env` to its environment.
 */
export interface Determinism {
  flags: string[];
  env: Record<string, string>;
  /** Address-space layout randomisation off (setarch -R): hash tables keyed by address fill alike. */
  aslrOff: boolean;
}

/**
 * Without incremental marking a full collection runs at once, when allocation calls for it: with
 * it, marking advances in tasks the platform runs when the loop is idle, so where a collection's
 * work is counted depends on the wall clock.
 */
const V8_FLAGS = ['--single-threaded', '--predictable-gc-schedule', '--no-incremental-marking', '--hash-seed=1', '--random-seed=1'];

/**
 * Besides the settings for determinism, each runtime writes down where it put its JIT code, so
 * callgrind's addresses can be named (jit-names.ts): V8 a perf map (--perf-basic-prof), JSC a
 * jitdump file (useJITDump; the folder is the lane's, given at start, see JITDUMP_DIR_ENV).
 */
export function determinism(runtime: RuntimeName): Determinism {
  if (runtime === 'node') return { flags: [...V8_FLAGS, '--perf-basic-prof'], env: {}, aslrOff: true };
  if (runtime === 'deno') return { flags: [`--v8-flags=${[...V8_FLAGS, '--perf-basic-prof'].join(',')}`], env: {}, aslrOff: true };
  return {
    flags: [],
    env: { BUN_JSC_useConcurrentJIT: 'false', BUN_JSC_useConcurrentGC: 'false', BUN_JSC_useJITDump: '1' },
    aslrOff: true,
  };
}

/** Where JSC writes its jitdump file (jit-<tid>-<pid>.dump): a path, so not among the settings named. */
export const JITDUMP_DIR_ENV = 'BUN_JSC_jitDumpDirectory';

/**
 * Callgrind's cache simulation, for the estimate of cycles beside the instruction count
 * (estimatedCycles): asked for with this variable set to 1, since it costs time (docs/instructions.md).
 */
export const CACHE_SIM_ENV = 'BENCH_CALLGRIND_CACHE_SIM';

/** The settings as one line for the report and the log. */
export function determinismWords(d: Determinism): string {
  const env = Object.entries(d.env).map(([k, v]) => `${k}=${v}`);
  return [...d.flags, ...env, ...(d.aslrOff ? ['ASLR off (setarch -R)'] : [])].join(' ') || 'none';
}

/**
 * The runtime's spec run under callgrind: valgrind (behind setarch) execs in the server's place,
 * so the pid the harness starts and checks against /health stays the server's. Collection is off
 * from the start: start-up is never counted.
 */
export function underCallgrind(spec: RuntimeSpec, d: Determinism, outFile: string, cacheSim = false): RuntimeSpec {
  const valgrind = [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${outFile}`,
    // Bun and Deno map their JIT code writable and executable: Valgrind must see code change.
    '--smc-check=all-non-file',
    // Bun's allocator asks for address space in a way Valgrind's default brk emulation refuses.
    '--error-limit=no',
    ...(cacheSim ? ['--cache-sim=yes'] : []),
  ];
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64';
  const launcher = d.aslrOff ? ['setarch', arch, '-R', ...valgrind] : valgrind;
  const args = (serverArgs: string[]): string[] => {
    const own = spec.args(serverArgs);
    // Deno's own flags follow its subcommand; Node's and Bun's come before the entrypoint.
    const withFlags = spec.name === 'deno' && own[0] === 'run' ? ['run', ...d.flags, ...own.slice(1)] : [...d.flags, ...own];
    return [...launcher.slice(1), spec.binary, ...withFlags];
  };
  return { ...spec, binary: launcher[0] ?? 'valgrind', args };
}

/**
 * Node from 22.18 and 23.6 strips TypeScript's types itself: its servers then run without tsx's
 * loader, whose esbuild service answers a ping by the clock for as long as the process lives
 * (about 100k instructions a second under Valgrind, more on a busier host). Older Node keeps tsx.
 */
export function withoutTsx(spec: RuntimeSpec, version: string): RuntimeSpec {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const strips = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  if (spec.name !== 'node' || !strips) return spec;
  const args = (serverArgs: string[]): string[] => {
    const own = spec.args(serverArgs);
    const at = own.findIndex((arg, i) => arg === '--import' && /[/\\]tsx[/\\]/.test(own[i + 1] ?? ''));
    return at < 0 ? own : [...own.slice(0, at), ...own.slice(at + 2)];
  };
  return { ...spec, args };
}

/** One callgrind_control command to the server (`-i on`, `-i off`, `-d label`, `-z`). */
export async function callgrindControl(pid: number, args: readonly string[]): Promise<void> {
  const { stdout } = await run('callgrind_control', [...args, String(pid)], { timeout: 60_000 });
  if (!/OK\./.test(stdout)) throw new Error(`callgrind_control ${args.join(' ')} ${pid}: ${stdout.trim().split('\n').at(-1) ?? ''}`);
}

/**
 * Dumps the counters (which zeroes them) and returns the file written: callgrind names each dump
 * of `<out>` as `<out>.<n>`, n counting up from 1.
 */
export async function dumpCounters(pid: number, outFile: string, label: string): Promise<string> {
  const before = new Set(dumpFiles(outFile));
  await callgrindControl(pid, ['-d', label]);
  const added = dumpFiles(outFile).filter((f) => !before.has(f));
  const file = added.sort((a, b) => partOf(a) - partOf(b)).at(-1);
  if (file === undefined) throw new Error(`callgrind wrote no dump for ${label} beside ${outFile}`);
  return file;
}

function dumpFiles(outFile: string): string[] {
  const dir = dirname(outFile);
  const prefix = `${basename(outFile)}.`;
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && /^\d+$/.test(f.slice(prefix.length)))
    .map((f) => join(dir, f));
}

function partOf(file: string): number {
  return Number(file.slice(file.lastIndexOf('.') + 1));
}

/** Every event a dump counted (Ir, and with the cache simulation its misses), all threads together: its `totals:` line (or `summary:`). */
export function dumpEvents(text: string): Record<string, number> {
  const names = /^events:\s*(.+)$/m.exec(text)?.[1]?.trim().split(/\s+/) ?? [];
  const values = (/^totals:\s*(.+)$/m.exec(text)?.[1] ?? /^summary:\s*(.+)$/m.exec(text)?.[1])?.trim().split(/\s+/) ?? [];
  return Object.fromEntries(names.flatMap((name, i) => (/^\d+$/.test(values[i] ?? '') ? [[name, Number(values[i])]] : [])));
}

/** The instructions (Ir) a dump counted, all threads together. */
export function dumpTotal(text: string): number {
  const total = dumpEvents(text).Ir;
  if (total === undefined) throw new Error('callgrind dump without an Ir total');
  return total;
}

export function readDumpEvents(file: string): Record<string, number> {
  const text = readFileSync(file, 'utf8');
  dumpTotal(text);
  return dumpEvents(text);
}

/**
 * Cycles estimated from the cache simulation's misses, the usual weights (callgrind_annotate's
 * and KCachegrind's "cycle estimation"): an instruction a cycle, a first-level miss 10 more, a
 * last-level miss 100. Undefined without the simulation's events.
 */
export function estimatedCycles(events: Record<string, number>): number | undefined {
  const { Ir, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw } = events;
  if (Ir === undefined || I1mr === undefined || D1mr === undefined || D1mw === undefined) return undefined;
  if (ILmr === undefined || DLmr === undefined || DLmw === undefined) return undefined;
  return Ir + 10 * (I1mr + D1mr + D1mw) + 100 * (ILmr + DLmr + DLmw);
}
