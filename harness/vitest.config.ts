import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start real servers and load them: one file at a time, so their timings
    // do not fight over the machine's cores.
    fileParallelism: false,
    // The default limit. A test that gives a child process (or a run of them) longer states its
    // own limit, at least the sum of its waits, so the child's timeout fires first with its own
    // message: a spawnSync blocks the test's timer, and a child that finished at 90 s under a
    // 60 s limit would fail the test as a timeout after it passed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
