// --profile end to end on every runtime: the profiles are written beside the report and parse, a
// known blocking function is named as what held the loop (fib's recursion, bcrypt's native hash),
// an async mode whose work left leaves an idle main thread, and nothing is left running.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/bench.ts';
import { parsePlan } from '../../src/bench/plan.ts';
import { parseCpuProfile } from '../../src/report/cpu-profile.ts';
import { loopSentence } from '../../src/report/text/sentences.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { cellOf, isAlive, processesMentioning, recordingProgress } from './helpers.ts';

const RUNTIMES = ['node', 'bun', 'deno'] as const;
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-profile-'));
});
afterAll(async () => {
  await stopAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

describe('--profile', () => {
  // One run for the three runtimes: the setup (host check, input files) is paid once.
  it('on every runtime: fib and hashSync named as the loop holders, hash/async leaves the main thread idle', {
    timeout: 90_000,
  }, async () => {
    const out = join(tmp, 'out');
    const plan = parsePlan([
      ...['--runtimes', RUNTIMES.join(','), '--scenarios', 'fib,hash', '--modes', 'sync,async', '--profile'],
      ...['--runs', '1', '--duration', '0.2', '--warmup', '0', '--min-requests', '0', '--cross-check', 'none', '--out', out],
      // A hash of about 20 ms: still past the 10 ms a stall needs, and a load leaves little behind.
      ...['--hash-cost', '8'],
      ...['--data-dir', join(tmp, 'data'), '--file-count', '2', '--file-size', '4096'],
    ]);
    const progress = recordingProgress();
    const { report } = await runBench(plan, { progress });
    expect(progress.lines.filter((l) => l.startsWith('profile: '))).toHaveLength(4 * RUNTIMES.length);
    expect(report.timing?.phasesSec.profile).toBeGreaterThan(0);
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);

    for (const runtime of RUNTIMES) {
      for (const mode of ['sync', 'async'] as const)
        for (const scenario of ['fib', 'hash'] as const) {
          const profile = cellOf(report, runtime, scenario, mode).profile;
          expect(profile?.reason, `${runtime} ${scenario}/${mode}`).toBeUndefined();
          // Each cell's slice and the process's whole profile are files DevTools can open.
          for (const file of [profile?.file ?? '', profile?.processFile ?? '']) {
            expect(existsSync(join(out, file)), file).toBe(true);
            expect(parseCpuProfile(readFileSync(join(out, file), 'utf8')).samples.length).toBeGreaterThan(0);
          }
        }

      const fibSync = cellOf(report, runtime, 'fib', 'sync').profile?.summary;
      expect(fibSync?.bySelf[0]?.name, runtime).toMatch(/^fib/);
      expect(fibSync?.held.holders[0]?.name, runtime).toMatch(/^fib/);

      const hashSync = cellOf(report, runtime, 'hash', 'sync').profile?.summary;
      expect(hashSync?.bySelf[0], runtime).toMatchObject({ name: 'hashSync', where: expect.stringMatching(/^bcrypt\//) });
      expect(hashSync?.held.holders[0]?.name, runtime).toBe('hashSync');

      // bcrypt.hash runs on the runtime's pool: its main thread waits, holding nothing.
      const hashAsync = cellOf(report, runtime, 'hash', 'async').profile?.summary;
      expect(
        hashAsync?.bySelf.some((f) => f.name === 'hashSync'),
        runtime,
      ).toBe(false);
      expect(
        hashAsync?.held.holders.some((h) => h.name === 'hashSync'),
        runtime,
      ).toBe(false);
      expect(hashAsync?.idleShare, runtime).toBeGreaterThan(0.5);

      // The verdict cites the profile: fib's async mode still runs fib on the main thread.
      const sentence = loopSentence(runtime, cellOf(report, runtime, 'fib', 'async'), cellOf(report, runtime, 'fib', 'sync'));
      expect(sentence, runtime).toMatch(/profile: main thread busy .* against sync's .*(by |, )fib\w* \(/);
    }
  });
});
