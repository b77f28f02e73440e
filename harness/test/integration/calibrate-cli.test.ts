// The calibration's paths that compare no rate, on a real server (raw Bun) in its shortest form:
// without wrk the autocannon figures stand alone with the reason; an abort ends it with the
// server stopped, well inside 15 s; its command line checks --out before anything runs and makes
// it once the run starts, as bench's, curve's and ab's do. The runs with wrk, whose clients'
// rates are compared, are calibrate.test.ts (serial group).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { calibrate } from '../../src/calibrate/calibrate.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { ended, isAlive, processesMentioning, processTree, SHORT_CALIBRATION as SHORT } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const userWrkBin = process.env.BENCH_WRK_BIN;

/** What this test process started and is still running: servers, wrk (worker threads are not processes). */
const children = () => processTree(process.pid).filter((pid) => pid !== process.pid && isAlive(pid));

afterEach(() => {
  if (userWrkBin === undefined) delete process.env.BENCH_WRK_BIN;
  else process.env.BENCH_WRK_BIN = userWrkBin;
});
afterAll(async () => {
  await stopAllServers();
});

describe('without wrk', () => {
  it('records autocannon figures only, no ratio, and says why', async () => {
    process.env.BENCH_WRK_BIN = '/nonexistent/wrk';
    const result = await calibrate(SHORT);
    expect(result.wrk).toEqual({ available: false, reason: 'BENCH_WRK_BIN=/nonexistent/wrk is not an executable file' });
    // No wrk to match: autocannon runs the duration asked.
    expect(result.parameters.durationSec).toBe(0.5);
    const bun = result.results[0];
    expect(bun?.status).toBe('ok');
    expect(bun?.reason).toMatch(/BENCH_WRK_BIN/);
    expect(bun?.settings[0]?.autocannon.median).toBeGreaterThan(0);
    expect(bun?.settings[0]?.wrk).toBeNull();
    expect(bun?.best).toMatchObject({ ratio: null, ceilingOk: null, text: expect.stringMatching(/^ceiling unknown: BENCH_WRK_BIN/) });
    expect(result.closest).toBeNull();
  });
});

describe('interruption', () => {
  it('an abort mid-run ends with status interrupted, the server stopped', async () => {
    process.env.BENCH_WRK_BIN = '/nonexistent/wrk';
    const controller = new AbortController();
    const started = Date.now();
    const run = calibrate({
      ...SHORT,
      durationSec: 20,
      signal: controller.signal,
      progress: () => {},
    });
    setTimeout(() => controller.abort(new Error('interrupted by test')), 2_500);
    const result = await run;
    expect(result.status).toBe('interrupted');
    expect(result.results).toEqual([]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(children()).toEqual([]);
  });
});

describe('the command line: --out checked up front, made once the run starts', () => {
  const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const tmp = mkdtempSync(join(tmpdir(), 'calibrate-cli-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** calibrate-cli started with `argv`: the child, its exit code to come, and its stderr so far. */
  function start(argv: string[], env: NodeJS.ProcessEnv = {}) {
    const child = spawn(process.execPath, [...HARNESS_NODE_ARGS, resolve(HARNESS, 'src/calibrate-cli.ts'), ...argv], {
      cwd: HARNESS,
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    return { child, exit: ended(child), stderr: () => stderr };
  }

  async function calibrateCli(argv: string[]): Promise<{ code: number | null; stderr: string }> {
    const run = start(argv);
    const code = await run.exit;
    return { code, stderr: run.stderr() };
  }

  // One bad --out through the command; the other kind (/proc/version/results) is the same check
  // up front (creatableDir), refused in-process in cli-flags.test.ts and by bench in faults.test.ts.
  it('a bad --out file/x/y: one line, exit 2, nothing made', async () => {
    const file = join(tmp, 'file');
    writeFileSync(file, '');
    const out = join(tmp, 'file/x/y');
    const { code, stderr } = await calibrateCli(['--runtimes', 'bun', '--servers', 'raw', '--quick', '--out', out]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(`calibrate: --out ${out} is not a writable folder: ENOTDIR`);
    expect(existsSync(join(file, 'x'))).toBe(false);
  });

  it('a refused preflight leaves no --out behind', async () => {
    const sshConfig = join(tmp, 'ssh_config');
    // Every connection fails at once, with ssh's own exit 255, as an unreachable host's does.
    writeFileSync(sshConfig, 'Host *\n  ProxyCommand /bin/false\n');
    const out = join(tmp, 'refused');
    const { code, stderr } = await calibrateCli([
      ...['--runtimes', 'bun', '--servers', 'raw', '--quick', '--no-open-loop', '--out', out],
      ...['--server-host', 'nobody@unreachable.invalid', '--ssh-config', sshConfig],
    ]);
    expect(code, stderr).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^calibrate: ssh to nobody@unreachable\.invalid/);
    expect(existsSync(out)).toBe(false);
  });

  it('is made before measuring: interrupted while a server starts, the run has its folder and its calibration.json', async () => {
    // A server that never answers: the calibration waits on its start-up until interrupted.
    const pidFile = join(tmp, 'never-ready.pid');
    const binary = join(tmp, 'never-ready-bun');
    writeFileSync(binary, `#!/bin/sh\nif [ "$1" = --version ]; then echo 9.9.9; exit 0; fi\necho $$ > ${pidFile}\nexec sleep 60\n`);
    chmodSync(binary, 0o755);
    const out = join(tmp, 'interrupted');
    const run = start(['--runtimes', 'bun', '--servers', 'raw', '--quick', '--no-open-loop', '--out', out], {
      BENCH_BUN_BIN: binary,
      BENCH_WRK_BIN: '/nonexistent/wrk',
    });
    for (const until = Date.now() + 30_000; !existsSync(pidFile) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(pidFile), run.stderr()).toBe(true);
    expect(existsSync(out)).toBe(true);
    run.child.kill('SIGINT');
    expect(await run.exit, run.stderr()).toBe(130);
    const written = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8')) as { status: string };
    expect(written.status).toBe('interrupted');
    expect(isAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
    expect(processesMentioning(tmp)).toEqual([]);
  }, 60_000);
});
