// The bench's entry point refusing a bad flag before anything starts: no server, no load, so it
// runs among the unit files (the bench's runs end to end are integration/bench.test.ts).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_NODE_ARGS } from './harness-cli.ts';

describe('bench command line', () => {
  it('refuses a bad flag with one line and exit code 2, starting nothing', () => {
    const cli = resolve(import.meta.dirname, '../src/bench-cli.ts');
    const res = spawnSync(process.execPath, [...HARNESS_NODE_ARGS, cli, '--runtimes', 'node,java'], {
      encoding: 'utf8',
      cwd: resolve(import.meta.dirname, '..'),
    });
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toBe('bench: --runtimes: unknown "java"; accepted: node, bun, deno');
    expect(res.stdout).toBe('');
  });
});
