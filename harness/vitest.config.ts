import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// V8's compile cache (Node's own, keyed by each file's content) for every Node process the suite
// starts: its workers, the harness CLIs the tests start (test/harness-cli.ts), the servers those
// start. A module unchanged since an earlier start is not compiled again: a CLI's start costs about
// half. It changes only how code is loaded, before any server answers /health or a figure is read.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache');

/**
 * Integration files that assert behaviour only: what failed and why, what was left running, that
 * a figure exists and where it came from, a stop well inside 15 or 30 s; no timing or rate that
 * other load on the machine would move. Most of their time is waiting (a hang deadline, a
 * heartbeat's watchdog, a signal's grace, a queue draining, ssh) and the rest is start-ups: three
 * at a time, they keep the machine's two cores about 90 % busy instead of half idle. Each looks
 * for leftovers only among its own processes (its temporary folder; the remote ones their own
 * network namespaces), never at every server on the machine. Among them, end to end: bench:ab,
 * the action's steps, the packed command and bench:curve, whose verdicts are asserted by their
 * consequences (files, exit codes) and may be "could not tell" on a busy host. Not the instruction
 * count: beside other files, two rounds of the same requests under Valgrind read 81 % apart where
 * alone they agree within 25 %, so it stays in the serial group.
 */
const SHARED = [
  // Longest first, as they ran in CI: with three at a time, the last to start are short,
  // so the group does not end on one long file running alone on a half-idle machine. On a fresh
  // clone vitest has no durations of its own and would start the largest files first instead.
  'test/integration/server-robustness.test.ts',
  'test/integration/seeds.test.ts',
  'test/integration/remote-stops.test.ts',
  'test/integration/faults.test.ts',
  'test/integration/remote.test.ts',
  'test/integration/action.test.ts',
  'test/integration/overload.test.ts',
  'test/integration/ab.test.ts',
  'test/integration/scenario-file.test.ts',
  'test/integration/instructions-beside.test.ts',
  'test/integration/packed-cli.test.ts',
  'test/integration/hung-dead.test.ts',
  'test/integration/servers.test.ts',
  'test/integration/curve-cli.test.ts',
  'test/integration/quiet-wait.test.ts',
  'test/integration/versions.test.ts',
  'test/integration/processes-refusal.test.ts',
  'test/integration/sweep.test.ts',
  // The calibration without wrk, interrupted, and its command line: figures that exist, a reason,
  // exit codes, a stop inside 15 s. Its runs with wrk compare the two clients' rates and stay in
  // the serial group (calibrate.test.ts).
  'test/integration/calibrate-cli.test.ts',
  // --processes 2's serving, /stats, /reset and stop: no rate. Its bench run's rates stay in the
  // serial group (processes.test.ts).
  'test/integration/processes-group.test.ts',
  // The browser study's CLI interrupted: an exit code, the cases kept, no browser left. Its
  // study of the timers stays in the serial group (browser.test.ts).
  'test/integration/browser-cli.test.ts',
];

/**
 * SHARED's files in its order, then every other file of their group where vitest puts it: the
 * files that start no server (the unit project) take each worker a long file leaves, so the
 * group's tail is not one long file alone on a half-idle machine.
 */
class SharedInListOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A file of the project not in SHARED (OWN_PROCESS: short, no server) after all of them.
    const rank = (spec: TestSpecification) => {
      const index = SHARED.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? SHARED.length : index;
    };
    const shared = sorted.filter((spec) => spec.project.name === 'shared').sort((a, b) => rank(a) - rank(b));
    return [...shared, ...sorted.filter((spec) => spec.project.name !== 'shared')];
  }
}

/**
 * Files that start no server but need a process of their own: scenario-contract and
 * user-scenarios register user modules in the harness's scenario list, which lasts as long as the
 * process (one CLI run), so a file after them in a shared worker would plan their modules too; the
 * first-touch measurement needs an allocator that has not yet grown its heap, or its "fresh"
 * buffers come from pages already there.
 */
const OWN_PROCESS = ['test/scenario-contract.test.ts', 'test/user-scenarios.test.ts', 'test/first-touch.test.ts'];

/**
 * Files that start no harness server but hold a local one to a time (a 10 ms answer's p50 under
 * 40 ms, a run's length within bounds, an answer taken without waiting a 20 ms gap) or read CPU
 * against the clock (a process quiet within a poll): beside the first group's files, a core shared
 * three ways could move those, so they run in the serial group.
 */
const TIMED = ['test/generator.test.ts', 'test/load.test.ts', 'test/quiet.test.ts', 'test/quiet-threads.test.ts'];

/** The shared group's pool: vitest runs a group's projects in one pool, so both state the same count. */
const WORKERS = 3;

export default defineConfig({
  test: {
    // The default limit. A test that gives a child process (or a run of them) longer states its
    // own limit, at least the sum of its waits, so the child's timeout fires first with its own
    // message: a spawnSync blocks the test's timer, and a child that finished at 90 s under a
    // 60 s limit would fail the test as a timeout after it passed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: SharedInListOrder },
    projects: [
      {
        extends: true,
        // OWN_PROCESS too: each file of this project has a process of its own (isolate, the default).
        test: { name: 'shared', include: [...SHARED, ...OWN_PROCESS], maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // The files that start no server, in the shared group's pool after its files (the
        // sequencer above): run alone they would keep one core busy and the other idle for about
        // a minute; beside the shared files they fill the cores those leave, and like those they
        // hold nothing to a time. A worker keeps what its files imported (isolate: false) instead
        // of a new process a file importing the same modules again. None mocks a module or
        // changes a global another reads; the three that need a process of their own are in
        // OWN_PROCESS.
        test: {
          name: 'unit',
          include: ['test/*.test.ts', 'test/browser/*.test.ts'],
          exclude: [...OWN_PROCESS, ...TIMED],
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // The other integration files (and TIMED), one file at a time: what compares
        // timings or rates (capacity, processes, curves, the quick bench's probe, the browser
        // study's timers) has the machine to itself.
        test: {
          name: 'serial',
          include: ['test/integration/*.test.ts', ...TIMED],
          exclude: SHARED,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
