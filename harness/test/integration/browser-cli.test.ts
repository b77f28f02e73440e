/**
 * The browser study's command line interrupted: SIGINT kills the browser, keeps the cases that
 * finished and exits 130, with no browser process left behind (found by a tag in their
 * environment, which every child of the browser inherits). It compares no time, so it runs in
 * the shared group; the study's timers are browser.test.ts (serial group).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { browserProcesses, untilNone } from './helpers.ts';
import { executable } from '../../src/browser/driver.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TAG = `i14-${process.pid}-${Date.now()}`;
const required = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';

const gone = (tag: string, ms = 5000): Promise<number[]> => untilNone(() => browserProcesses(tag), ms);

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
    expect(browserProcesses(tag).length).toBeGreaterThan(0);
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
