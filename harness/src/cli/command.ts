// The one skeleton every command line runs in: a problem the user can fix is one line on stderr
// and exit 2; a crash is its stack and exit 1; the first SIGINT/SIGTERM aborts the run (which
// then keeps what finished), a second one, once the first was acknowledged, stops at once,
// keeping what finished and leaving no process behind.
import { killGroupsNow } from '../system/children.ts';
import { Interrupted } from './interrupt.ts';

/** A problem the user can fix (a flag, a file, a host): told in one line, exit 2. */
export class CommandError extends Error {}

const EXIT_USAGE = 2;
const EXIT_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;
/**
 * Signals this soon after the first one are that same request to stop: a signal to the process
 * group (a supervisor, `timeout`, a CI runner's cancel) reaches the harness directly and again
 * through each wrapper that forwards it (npx, pnpm, tsx), milliseconds apart. A person pressing
 * Ctrl-C again after reading the acknowledgement takes far longer than this.
 */
export const SAME_REQUEST_MS = 500;

export interface CommandOptions {
  /**
   * Commands that run servers or load: SIGINT/SIGTERM abort the context's signal instead of
   * ending the process, and a second signal ends it at once.
   */
  interruptible?: boolean;
  /** After a crash, before exit 1 (e.g. stop every server still running). */
  cleanup?: () => Promise<void>;
  /**
   * On the second signal, synchronously, before every tracked process group is killed: e.g.
   * write the report of what finished.
   */
  onForce?: () => void;
  /** The exit code of a crash (compare's "the comparison could not be made" is 2). */
  crashCode?: number;
  /** End with process.exit (commands whose helpers may keep the event loop alive). */
  exit?: boolean;
}

export interface CommandContext {
  /** Aborted by the first SIGINT/SIGTERM (interruptible commands only). */
  signal: AbortSignal;
}

/**
 * autocannon's per-request timeout timer (retimer) reschedules itself by the time left, which can
 * come out a few ms below zero under load; Node then warns and waits 1 ms, which is what was
 * meant. The warning tells the user nothing about their run, so it alone is not printed.
 */
function quietNegativeTimeouts(): void {
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'TimeoutNegativeWarning') return;
    for (const print of printers) print(warning);
  });
}

/** Runs `main` and ends the process with its exit code, or that of the signal that stopped it. */
export function runCommand(name: string, main: (context: CommandContext) => Promise<number> | number, options: CommandOptions = {}): void {
  quietNegativeTimeouts();
  const controller = new AbortController();
  const caught = options.interruptible === true ? onSignals(name, controller, options.onForce) : () => undefined;
  const end = (code: number) => {
    if (options.exit === true || options.interruptible === true) process.exit(code);
    // exitCode rather than exit(), so a piped stdout is flushed before the process ends.
    process.exitCode = code;
  };
  Promise.resolve()
    .then(() => main({ signal: controller.signal }))
    .then(
      (code) => end(caught() ?? code),
      async (error: unknown) => {
        // Interrupted somewhere no one caught it: the run stopped as asked, it did not crash.
        const signalCode = caught();
        if (error instanceof Interrupted && signalCode !== undefined) {
          await options.cleanup?.();
          return end(signalCode);
        }
        if (error instanceof CommandError) {
          console.error(`${name}: ${error.message}`);
          await options.cleanup?.();
          return end(caught() ?? EXIT_USAGE);
        }
        console.error(`${name}: ${(error as Error).stack ?? String(error)}`);
        await options.cleanup?.();
        end(options.crashCode ?? 1);
      },
    );
}

/**
 * The first SIGINT/SIGTERM aborts `controller`; another one, SAME_REQUEST_MS or more after it was
 * acknowledged, kills every tracked process group synchronously and exits with the first one's
 * code. Returns that code once a signal came.
 */
function onSignals(name: string, controller: AbortController, onForce: (() => void) | undefined): () => number | undefined {
  let caught: keyof typeof EXIT_SIGNAL | undefined;
  let acknowledgedAt = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (caught === undefined) {
        caught = signal;
        console.error(`\n${name}: ${signal}: stopping the load and the servers, keeping what finished (again to stop at once)`);
        acknowledgedAt = performance.now();
        controller.abort();
        return;
      }
      if (performance.now() - acknowledgedAt < SAME_REQUEST_MS) return;
      console.error(`\n${name}: ${signal} again: stopping at once`);
      try {
        onForce?.();
      } finally {
        killGroupsNow();
        process.exit(EXIT_SIGNAL[caught]);
      }
    });
  }
  return () => (caught === undefined ? undefined : EXIT_SIGNAL[caught]);
}
