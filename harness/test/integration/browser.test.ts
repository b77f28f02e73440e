/**
 * The 002 study in the real system browsers: each one started headless, one small case per
 * mode, fib(n) checked in the page against a literal, the worker keeping a 10 ms timer on time
 * where sync cannot (a >= 20 ms blocking sample must make a 10 ms timer >= 10 ms late), and no
 * browser process left behind. Browser processes are found by a tag in their environment, which
 * every child of the browser inherits. The timers' lateness is compared, so the file runs in the
 * serial group; the interrupted CLI, which compares no time, is browser-cli.test.ts.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { browserProcesses, untilNone } from './helpers.ts';
import { BROWSERS, executable, killAll } from '../../src/browser/driver.ts';
import { runStudy } from '../../src/browser/study.ts';

const TAG = `i14-${process.pid}-${Date.now()}`;
process.env.BENCH_BROWSER_TAG = TAG;
const required = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';

const gone = (tag: string, ms = 5000): Promise<number[]> => untilNone(() => browserProcesses(tag), ms);

afterAll(() => killAll());

const FIB_20 = 6765;

for (const name of BROWSERS) {
  const installed = existsSync(executable(name));
  if (!installed && !required) console.warn(`browser test SKIPPED for ${name}: ${executable(name)} not found`);
  describe.skipIf(!installed && !required)(`${name} headless`, () => {
    it('computes fib(20) in every mode, the worker keeps the timer on time, nothing is left behind', async () => {
      const section = await runStudy({
        browsers: [name],
        variants: ['plain'],
        modes: ['sync', 'async', 'worker'],
        ladder: { plain: [20], busy: [], memo: [], 'memo-late': [] },
        busyExponent: 4,
        warmupMs: 100,
        samples: 3,
        caseTimeoutMs: 30_000,
      });
      expect(section.browsers[0]).toMatchObject({ name, status: 'ok' });
      expect(section.browsers[0]?.version).toMatch(/\d+\.\d+/);
      const byMode = Object.fromEntries(section.cases.map((c) => [c.mode, c]));
      for (const mode of ['sync', 'async', 'worker']) {
        expect(byMode[mode]?.status, byMode[mode]?.reason).toBe('ok');
        expect(byMode[mode]?.value).toBe(FIB_20);
      }
      expect(byMode.sync?.timerLateMs?.max).toBeGreaterThanOrEqual(10);
      // The worker leaves the page's timer running: its late ticks stay below what the blocked
      // page's did, in the same browser a moment apart (not a fixed figure a busy host can cross).
      expect(byMode.worker?.timerLateMs?.p99).toBeLessThan(byMode.sync?.timerLateMs?.max ?? 0);
      expect(await gone(TAG)).toEqual([]);
    }, 60_000);
  });
}
