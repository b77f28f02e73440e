/** A cell's CPU profile in report.json (added): where it is kept and what its main thread did. */

/** One function of a profile: a JavaScript function, a native one, or one of the VM's own entries. */
export interface ProfileFunction {
  name: string;
  /** The file (package-relative when in node_modules) and, where the profile has it, the 1-based line. */
  where?: string;
  /** js: has a script; native: no script (a binding, a builtin); vm: (idle), (program), (garbage collector). */
  kind: 'js' | 'native' | 'vm';
  selfMs: number;
  totalMs: number;
  /** Of the analysed window's wall time (the main thread's whole time, idle included). */
  selfShare: number;
  totalShare: number;
}

/** A function's share of the time the loop was late (or held: stretches past the stall threshold). */
export interface ProfileHolder {
  name: string;
  where?: string;
  kind: 'js' | 'native' | 'vm';
  ms: number;
  /** Of the late (or held) time the profile sampled. */
  share: number;
  /** added: the function that called it most in that time, recursion skipped (the nearest frame of another function). */
  caller?: { name: string; where?: string; kind: 'js' | 'native' | 'vm' };
}

/**
 * added: the main thread while the server's own lag sampler saw the loop late (GET /stats/late):
 * each interval from when one of its ticks was due to when it ran, the tick more than
 * `thresholdMs` late, and the functions on top of the stack in the samples taken then.
 */
export interface ProfileLate {
  thresholdMs: number;
  /** Late intervals in the window. */
  stalls: number;
  /** Their time in the window, ms, and as a share of the window. */
  ms: number;
  share: number;
  longestMs: number;
  /** The samples' time in those intervals, ms: what the holders' shares are of. */
  sampledMs: number;
  holders: ProfileHolder[];
}

/** What a profile's main thread did over the analysed window. */
export interface ProfileSummary {
  /** Wall time analysed, ms. */
  windowMs: number;
  samples: number;
  /** The median time between samples, µs: the profiler's real interval, which may exceed the one asked for. */
  intervalUs: number;
  /** Shares of the window: running (JavaScript or native code on the main thread), idle, collecting garbage. */
  busyShare: number;
  idleShare: number;
  gcShare: number;
  /** By self time, then by total time (time on the stack), the VM's own entries left out of the second. */
  bySelf: ProfileFunction[];
  byTotal: ProfileFunction[];
  /** added: what ran while the loop was late, where the server's lag sampler recorded it (every Hono server since it could). */
  late?: ProfileLate;
  /**
   * The loop held, read from the profile alone, where the server recorded no late intervals (a
   * raw server, an app from before it could): stretches of at least `thresholdMs` in which every
   * sample had code running on the main thread (no return to the loop seen), and the functions on
   * top of the stack in them. Optional since `late` came: a summary has one or the other.
   */
  held?: { thresholdMs: number; stretches: number; ms: number; share: number; longestMs: number; holders: ProfileHolder[] };
}

/** Another thread's share of a cell's window (Node profiles each worker thread; Bun and Deno the main thread only). */
export interface ThreadProfile {
  /** That thread's whole profile, relative to the report's folder. */
  file: string;
  busyShare: number;
  bySelf: ProfileFunction[];
}

/** One frame of a flame graph: a function on a stack path, with the time spent there and below, ms. */
export interface FlameNode {
  name: string;
  where?: string;
  ms: number;
  children: FlameNode[];
}

/** A cell's profile (added to a cell with --profile). */
export interface CellProfile {
  /** The main thread over this cell's profiling load only (a slice of `processFile`), relative to the report's folder. */
  file: string;
  /** The profiled server process's whole main-thread profile, every cell of its runtime in turn. */
  processFile: string;
  /** Where this cell's load lies in `processFile`, µs after its startTime. */
  windowUs: { from: number; to: number };
  /** The interval asked for, µs. */
  requestedIntervalUs: number;
  /**
   * The profiling load: after the measured runs, on a server process of its own that never
   * served a measured run, so the profiler's cost reaches no measured figure.
   */
  load: { connections: number; durationSec: number; requestsPerSec: number };
  summary?: ProfileSummary;
  /** The main thread's call tree over the window, small paths left out (the flame graph's). */
  flame?: FlameNode;
  /** Other threads over the same window, where the runtime profiles them. */
  threads?: ThreadProfile[];
  /** Why there is no summary (no profile written, a profile that did not parse). */
  reason?: string;
}
