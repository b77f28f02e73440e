/**
 * The 002 study in the real system browsers: each one started headless, one small case per
 * mode, fib(n) checked in the page against a literal, the worker keeping a 10 ms timer on time
 * where sync cannot (a >= 20 ms blocking sample must make a 10 ms timer >= 10 ms late), and no
 * browser process left behind, also after the CLI is interrupted. Browser processes are found by
 * a tag in their environment, which every child of the browser inherits.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { untilNone } from './helpers.ts';
import { BROWSERS, executable, killAll } from '../../src/browser/driver.ts';
import { runStudy } from '../../src/browser/study.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TAG = `i14-${process.pid}-${Date.now()}`;
process.env.BENCH_BROWSER_TAG = TAG;
const required = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';

function tagged(tag: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // esbuild's service process (the page bundler) inherits the tag too; it is not a browser.
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'esbuild') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`BENCH_BROWSER_TAG=${tag}`)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

const gone = (tag: string, ms = 5000): Promise<number[]> => untilNone(() => tagged(tag), ms);

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

describe.skipIf(!existsSync(executable('chromium')) && !required)('interrupted CLI', () => {
  it('SIGINT kills the browser, keeps partial results and exits 130', async () => {
    const tag = `${TAG}-cli`;
    const out = mkdtempSync(join(tmpdir(), 'bench-browser-'));
    const child = spawn(
      process.execPath,
      [
        ...HARNESS_NODE_ARGS,
        'src/browser-cli.ts',
        '--browsers',
        'chromium',
        '--variants',
        'busy',
        '--modes',
        'sync',
        '--n',
        '10,22',
        '--samples',
        '50',
        '--busy-exponent',
        '6',
        '--out',
        out,
      ],
      {
        cwd: HARNESS,
        env: { ...process.env, BENCH_BROWSER_TAG: tag },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const started = Date.now();
    const at: Record<string, number> = {};
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('n=10:')) at.line ??= Date.now() - started;
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Interrupt once the first case is done and the second is running inside the browser.
    const until = Date.now() + 30_000;
    while (!stdout.includes('n=10:') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(tagged(tag).length).toBeGreaterThan(0);
    at.sigint = Date.now() - started;
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    at.exit = Date.now() - started;
    expect(await gone(tag)).toEqual([]);
    // Usually about 5 s; now and then in CI it has taken 30 s more, not yet seen where: say where.
    if (Date.now() - started > 15_000) console.warn(`browser SIGINT case slow (ms): ${JSON.stringify(at)}; stderr: ${stderr.slice(-1500)}`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.status).toBe('interrupted');
    expect(report.browser.cases.map((c: { n: number }) => c.n)).toEqual([10]);
    rmSync(out, { recursive: true, force: true });
  }, 60_000);
});
