// The bench's entry point refusing a bad flag before anything starts: no server, no load, so it
// runs among the unit files (the bench's runs end to end are integration/bench.test.ts).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '../src/bench/plan.ts';
import { FlagError } from '../src/cli/flags.ts';
import { HARNESS_NODE_ARGS, thrownBy } from './harness-cli.ts';

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

  // The other refusals of a flag come from the same place, the plan's parsing, before anything
  // starts: a FlagError, whose message the command prints after "bench: " as its one line and
  // exits 2, as above. Read here without starting a process for each.
  it('refuses a --sweep value outside the module bounds in one line', () => {
    const refusal = thrownBy(() => parsePlan(['--sweep', 'json:kb=0,64']));
    expect(refusal).toBeInstanceOf(FlagError);
    expect((refusal as Error).message).toBe('--sweep: json kb=0: kb must be an integer from 1 to 8192, got "0"');
  });
});
