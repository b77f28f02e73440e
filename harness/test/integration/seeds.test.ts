// `bench:seeds --quick` end to end on every runtime: every claim gets a row with figures and a
// verdict, and a missing ab skips its claims with the reason. It runs beside two other files, so
// it compares no timing; hold /tmp/bench.lock when running it by hand.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAIMS } from '../../src/seeds/claims.ts';
import type { SeedsReport } from '../../src/seeds/render.ts';
import { ended, processesMentioning } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(import.meta.dirname, '../..');
const CLI = resolve(HARNESS, 'src/seeds-cli.ts');
const dirs: string[] = [];

function run(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string; report: SeedsReport }> {
  const out = mkdtempSync(join(tmpdir(), 'seeds-test-'));
  dirs.push(out);
  return new Promise((done) => {
    const child = spawn(process.execPath, [...HARNESS_NODE_ARGS, CLI, ...argv, '--out', out], {
      cwd: HARNESS,
      env: { ...process.env, ...env },
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    void ended(child).then((code) =>
      done({ code, stdout, stderr, report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as SeedsReport }),
    );
  });
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('bench:seeds --quick', () => {
  it('every claim on every runtime: a row with figures per run, a ratio and a verdict', { timeout: 240_000 }, async () => {
    const { code, stdout, stderr, report } = await run(['--quick']);
    expect(code, stderr.slice(-2000)).toBe(0);
    expect(report.status).toBe('complete');
    for (const runtime of ['node', 'bun', 'deno']) {
      for (const claim of CLAIMS) {
        const row = report.rows.find((r) => r.runtime === runtime && r.claim === claim.id);
        expect(row, `${runtime} ${claim.id}`).toBeDefined();
        expect(row!.status, `${runtime} ${claim.id}: ${row!.reason ?? ''}`).toBe('ok');
        expect(row!.over).toHaveLength(2);
        expect(row!.base).toHaveLength(2);
        expect(row!.ratio!.ci95[0]).toBeLessThanOrEqual(row!.ratio!.median);
        expect(['holds', 'partly', 'does not hold', 'inconclusive']).toContain(row!.verdict);
        expect(row!.why.length).toBeGreaterThan(20);
      }
    }
    // 001's counts come from the server: async and sync each answered something in every run.
    for (const row of report.rows.filter((r) => r.claim.startsWith('001'))) expect(Math.min(...row.over, ...row.base)).toBeGreaterThan(0);
    expect(stdout).toMatch(/verdict/);
    expect(readFileSync(join(dirs.at(-1)!, 'report.md'), 'utf8')).toMatch(/003-static/);
    // Every server it started is gone (the static-file server is the only one given this folder).
    expect(processesMentioning(resolve(HARNESS, '../data/seeds-static'))).toEqual([]);
  });

  it('without ab, its claims (000, 003) are skipped with the reason; the others still run; --claims replays only those named', {
    timeout: 60_000,
  }, async () => {
    const claims = ['002-busy-fib', '003-static', '000-bcrypt'];
    const { code, report, stdout } = await run(['--quick', '--runtimes', 'node', '--claims', claims.join(',')], {
      BENCH_AB_BIN: '/nonexistent/ab',
    });
    expect(code).toBe(0);
    // In the replay's own order, whatever order they were named in; the header says which.
    expect(report.rows.map((r) => r.claim)).toEqual(['000-bcrypt', '002-busy-fib', '003-static']);
    expect(stdout).toContain('claims 002-busy-fib, 003-static, 000-bcrypt only');
    for (const id of ['000-bcrypt', '003-static']) {
      expect(report.rows.find((r) => r.claim === id)).toMatchObject({
        status: 'skipped',
        verdict: 'not measured',
        reason: expect.stringMatching(/ab not found.*apache2-utils/),
      });
    }
    expect(report.rows.find((r) => r.claim === '002-busy-fib')?.status).toBe('ok');
    expect(report.clients.ab.reason).toMatch(/apache2-utils/);
  });

  it('bad flags: one line and exit 2', () => {
    const res = spawnSync(process.execPath, [...HARNESS_NODE_ARGS, CLI, '--runs', '1'], { cwd: HARNESS, encoding: 'utf8' });
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toBe('seeds: --runs must be an integer from 2 to 50, got "1"');
    const claim = spawnSync(process.execPath, [...HARNESS_NODE_ARGS, CLI, '--claims', '002-busy-fib,004'], {
      cwd: HARNESS,
      encoding: 'utf8',
    });
    expect(claim.status).toBe(2);
    expect(claim.stderr.trim()).toMatch(/^seeds: --claims: unknown "004"; accepted: 000-bcrypt, 001-file-warm, .*002-memo-fib$/);
    const remote = spawnSync(process.execPath, [...HARNESS_NODE_ARGS, CLI, '--claims', '000-bcrypt', '--server-host', 'bench@10.0.0.2'], {
      cwd: HARNESS,
      encoding: 'utf8',
    });
    expect(remote.status).toBe(2);
    expect(remote.stderr.trim()).toMatch(
      /^seeds: --server-host is not supported by bench:seeds yet: .* starts its servers on this host only$/,
    );
  });
});
