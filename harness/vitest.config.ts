import { defineConfig } from 'vitest/config';

/**
 * Integration files that spend their time waiting on deadlines (a heartbeat's watchdog, a hang
 * deadline, a signal's grace, a download) and assert no timing or rate that other load on the
 * machine would move, only coarse bounds (a stop well inside 15 or 30 s): they run three at a
 * time, before the rest. Each looks for leftovers only among its own processes (its temporary
 * folder; remote-stops its own network namespaces), never at every server on the machine.
 */
const WAITING = [
  'test/integration/remote-stops.test.ts',
  'test/integration/faults.test.ts',
  'test/integration/versions.test.ts',
  'test/integration/quiet-wait.test.ts',
  'test/integration/hung-dead.test.ts',
];

export default defineConfig({
  test: {
    // The default limit. A test that gives a child process (or a run of them) longer states its
    // own limit, at least the sum of its waits, so the child's timeout fires first with its own
    // message: a spawnSync blocks the test's timer, and a child that finished at 90 s under a
    // 60 s limit would fail the test as a timeout after it passed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'waiting', include: WAITING, maxWorkers: 3, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        // Everything else starts real servers and loads them, or times something: one file at
        // a time, so their timings do not fight over the machine's cores.
        test: { name: 'serial', include: ['test/**/*.test.ts'], exclude: WAITING, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
