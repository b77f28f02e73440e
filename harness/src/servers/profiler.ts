import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeName } from '@bench/app';

/**
 * Each runtime's own V8 CPU profiler (`--cpu-prof`), which all three write in the same
 * `.cpuprofile` format (Chrome DevTools, speedscope and cpupro open it). Each writes its profile
 * as the process exits by itself or through process.exit or Deno.exit, which is where a server's
 * SIGTERM handler ends (runtimes/*); a process killed outright (SIGKILL, or a signal it does not
 * handle) writes none.
 */
export interface ProfilerSettings {
  /** Folder the profile is written into (created by the runtime). */
  dir: string;
  /** Sampling interval in microseconds. */
  intervalUs: number;
}

/**
 * The finest interval each profiler is asked for. V8 takes a sample per interval on a thread of
 * its own; below about 100 µs the sampler's own cost on a 2-CPU machine grows past a few percent
 * of the server's throughput, and the samples it adds no longer separate functions any better.
 */
export const PROFILE_INTERVAL_US = 100;

/** The runtime flags that turn its profiler on, placed where that runtime reads its own flags. */
export function profilerArgs(runtime: RuntimeName, args: readonly string[], settings: ProfilerSettings): string[] {
  const flags = ['--cpu-prof', `--cpu-prof-dir=${settings.dir}`, `--cpu-prof-interval=${settings.intervalUs}`];
  // Deno's flags follow its subcommand (`deno run --cpu-prof ... server.ts`); Node's and Bun's
  // come before the entrypoint.
  if (runtime === 'deno' && args[0] === 'run') return ['run', ...flags, ...args.slice(1)];
  return [...flags, ...args];
}

/** The profiles one server process left in its folder: its main thread's, and any other thread's. */
export interface ProfileFiles {
  main?: string;
  threads: string[];
}

/**
 * Node and Bun name a profile `CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`, thread 0 being
 * the main thread (Node writes one more for each worker thread); Deno writes
 * `CPU.<ms>.<pid>.cpuprofile` for its main thread and `CPU.<ms>.<pid>.worker-<n>.cpuprofile` for
 * a worker that ends before the process does. The main thread's becomes `main.cpuprofile`, the
 * others `thread-<id>.cpuprofile`, so a reader finds them by name.
 */
export function collectProfiles(dir: string): ProfileFiles {
  if (!existsSync(dir)) return { threads: [] };
  const out: ProfileFiles = { threads: [] };
  for (const file of readdirSync(dir).sort()) {
    if (!file.startsWith('CPU.') || !file.endsWith('.cpuprofile')) continue;
    const parts = file.slice(0, -'.cpuprofile'.length).split('.');
    const thread = parts.length >= 6 ? parts[4] : parts.length === 4 ? parts[3] : '0';
    const name = thread === '0' ? 'main.cpuprofile' : `thread-${thread}.cpuprofile`;
    renameSync(join(dir, file), join(dir, name));
    if (thread === '0') out.main = join(dir, name);
    else out.threads.push(join(dir, name));
  }
  return out;
}
