import { defineConfig } from 'vitest/config';

// isolate: false: a worker keeps what its files imported instead of a new process a file
// importing the app again. No file mocks a module or changes a global another reads.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, isolate: false } });
