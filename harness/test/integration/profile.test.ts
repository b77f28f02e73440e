// --profile end to end on every runtime: the profiles are written beside the report and parse, a
// known blocking function is named as what ran while the server's lag sampler saw the loop late
// (fib's recursion, bcrypt's native hash), an async mode whose work left leaves an idle main
// thread and a loop that was not late, and nothing is left running.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/bench/plan.ts';
import { parseCpuProfile } from '../../src/profile/cpu-profile.ts';
import { loopSentence } from '../../src/report/text/sentences.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { cellOf, isAlive, processesMentioning, recordingProgress } from './helpers.ts';
import { benchRun } from './bench-run.ts';

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
  // One run for the three runtimes: the setup (host check, input files) is paid once; --quick for
  // its lighter host check, the flags after it setting the runs.
  it('on every runtime: fib, hashSync and the sync sleep named as what ran while the loop was late; hash/async leaves the main thread idle, sleep/async the loop on time', {
    timeout: 90_000,
  }, async () => {
    const out = join(tmp, 'out');
    const plan = parsePlan([
      ...['--runtimes', RUNTIMES.join(','), '--scenarios', 'fib,hash,sleep', '--modes', 'sync,async', '--profile'],
      ...['--quick', '--runs', '1', '--duration', '0.2', '--warmup', '0', '--min-requests', '0', '--cross-check', 'none', '--out', out],
      // A hash of about 20 ms: still past the 10 ms a stall needs, and a load leaves little behind.
      ...['--hash-cost', '8'],
      ...['--data-dir', join(tmp, 'data'), '--file-count', '2', '--file-size', '4096'],
    ]);
    const progress = recordingProgress();
    const { report } = await benchRun(plan, { progress });
    const profileLines = progress.lines.filter((l) => l.startsWith('profile: '));
    expect(profileLines, progress.lines.join('\n')).toHaveLength(6 * RUNTIMES.length);
    expect(report.timing?.phasesSec.profile).toBeGreaterThan(0);
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);

    for (const runtime of RUNTIMES) {
      for (const mode of ['sync', 'async'] as const)
        for (const scenario of ['fib', 'hash', 'sleep'] as const) {
          const profile = cellOf(report, runtime, scenario, mode).profile;
          // A profiled server that did not start leaves its cells without a profile; the lines say why.
          expect(profile, profileLines.join('\n')).toBeDefined();
          expect(profile?.reason, `${runtime} ${scenario}/${mode}`).toBeUndefined();
          // Each cell's slice and the process's whole profile are files DevTools can open.
          for (const file of [profile?.file ?? '', profile?.processFile ?? '']) {
            expect(existsSync(join(out, file)), file).toBe(true);
            expect(parseCpuProfile(readFileSync(join(out, file), 'utf8')).samples.length).toBeGreaterThan(0);
          }
        }

      // What ran while the server's own lag sampler saw the loop more than 10 ms late: the blocking function.
      const fibSync = cellOf(report, runtime, 'fib', 'sync').profile?.summary;
      expect(fibSync?.bySelf[0]?.name, runtime).toMatch(/^fib/);
      expect(fibSync?.held, runtime).toBeUndefined();
      // A stall can last many requests: a loop that runs every request queued before its timers is late throughout.
      expect(fibSync?.late?.share, runtime).toBeGreaterThan(0.5);
      expect(fibSync?.late?.holders[0]?.name, runtime).toMatch(/^fib/);

      const hashSync = cellOf(report, runtime, 'hash', 'sync').profile?.summary;
      expect(hashSync?.bySelf[0], runtime).toMatchObject({ name: 'hashSync', where: expect.stringMatching(/^bcrypt\//) });
      expect(hashSync?.late?.share, runtime).toBeGreaterThan(0.5);
      expect(hashSync?.late?.holders[0]?.name, runtime).toBe('hashSync');

      // bcrypt.hash runs on the runtime's pool: its main thread waits, holding nothing.
      const hashAsync = cellOf(report, runtime, 'hash', 'async').profile?.summary;
      expect(
        hashAsync?.bySelf.some((f) => f.name === 'hashSync'),
        runtime,
      ).toBe(false);
      expect(
        hashAsync?.late?.holders.some((h) => h.name === 'hashSync'),
        runtime,
      ).toBe(false);
      expect(hashAsync?.idleShare, runtime).toBeGreaterThan(0.5);

      // A blocking wait holds the loop as surely as work does; an awaited one leaves it on time.
      const sleepSync = cellOf(report, runtime, 'sleep', 'sync').profile?.summary;
      // Bun names the native wait below it, with sleepSync as its caller.
      const sleeper = sleepSync?.late?.holders[0];
      expect(`${sleeper?.name} from ${sleeper?.caller?.name}`, runtime).toMatch(/sleep/);
      const sleepAsync = cellOf(report, runtime, 'sleep', 'async').profile?.summary;
      // Not zero: a shared host or a collection can make any loop late now and then.
      expect(sleepAsync?.late?.share, runtime).toBeLessThan(Math.min(0.25, (sleepSync?.late?.share ?? 0) / 4));
      expect(
        sleepAsync?.late?.holders.some((h) => /^sleep/.test(h.name)),
        runtime,
      ).toBe(false);

      // The verdict cites the profile: fib's async mode still runs fib on the main thread.
      const sentence = loopSentence(runtime, cellOf(report, runtime, 'fib', 'async'), cellOf(report, runtime, 'fib', 'sync'));
      expect(sentence, runtime).toMatch(
        /profile: main thread busy .* against sync's .*, while the loop was late \(.*\): \d+ % in fib\w* \(/,
      );
    }
  });
});
