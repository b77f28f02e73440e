// bench:ab end to end on node: a file: pair measured as two lanes alternating round by round, the
// report saying exactly what A and B were and a verdict per cell that the exit code follows; a bad
// variant stopped with one line and exit 2 before any server starts. Asserts structure and the
// rule's consequences, never which way a timing went.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/report.ts';
import { SAME_REQUEST_MS } from '../../src/cli/command.ts';
import { ended, isAlive, listeningPorts, processesMentioning, processTree, stderrWatch } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(import.meta.dirname, '../..');
let tmp: string;

const ab = (argv: string[]) => abIn(process.env, argv);

function abIn(env: NodeJS.ProcessEnv, argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...HARNESS_NODE_ARGS, resolve(HARNESS, 'src/ab-cli.ts'), ...argv], { cwd: HARNESS, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    void ended(child).then((code) => done({ code, stdout, stderr }));
  });
}

const spin = (rounds: number) =>
  `export const name = 'spin';\nexport const description = 'a fixed loop';\nexport const modes = ['sync'];\nexport function sync() { let h = 0; for (let i = 0; i < ${rounds}; i++) h = (h * 31 + i) | 0; return { h: ${rounds} }; }\n`;

function moduleFile(file: string, text: string): string {
  const path = join(tmp, file);
  writeFileSync(path, text);
  return path;
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const quick = (runs = 3) => [
  '--runtimes',
  'node',
  '--quick',
  '--runs',
  String(runs),
  '--data-dir',
  join(tmp, 'data'),
  '--file-count',
  '2',
  '--file-size',
  '4096',
];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ab-it-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bench:ab on node', () => {
  it('measures a file: pair as two alternating lanes on a new process pair every two rounds, and judges each cell on B over A', async () => {
    const a = moduleFile('spin-a.mjs', spin(20_000));
    const b = moduleFile('spin-b.mjs', spin(21_000));
    const out = join(tmp, 'run');
    // bench:ab's own shape (not --quick), at its minimum of three process pairs and the shortest
    // runs (0.1 s: hundreds of requests of this loop), as nothing below asks for a precise figure.
    const short = ['--runs', '6', '--max-runs', '6', '--duration', '0.1', '--warmup', '0', '--min-requests', '0', '--cross-check', 'none'];
    const { code, stdout, stderr } = await ab([
      '--a',
      `file:${a}`,
      '--b',
      `file:${b}`,
      ...quick().filter((f) => f !== '--quick' && f !== '--runs' && f !== '3'),
      ...short,
      '--out',
      out,
    ]);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.parameters.ab).toMatchObject({
      a: { kind: 'file', lanes: ['node-A'], file: { path: a, sha256: sha(a) } },
      b: { kind: 'file', lanes: ['node-B'], file: { path: b, sha256: sha(b) } },
      order: 'ABBA',
      margin: 0.05,
    });
    expect(report.runtimes.map((r) => [r.label, r.status])).toEqual([
      ['node-A', 'ok'],
      ['node-B', 'ok'],
    ]);
    // Each side's server served its own module: the answers differ by the loop count.
    const cells = report.results.filter((r) => r.scenario === 'spin');
    expect(cells.map((c) => [c.runtimeLabel, c.mode, c.status])).toEqual([
      ['node-A', 'sync', 'ok'],
      ['node-B', 'sync', 'ok'],
    ]);
    expect(report.parameters.roundsPerProcess).toBe(2);
    for (const c of cells) {
      expect(c.runDetails.map((r) => r.round)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(c.runDetails.map((r) => r.serverProcess)).toEqual([1, 1, 2, 2, 3, 3]);
    }
    // A and B restarted together: each round's two runs came from the same pair of fresh processes.
    const pids = (label: string) => cells.find((c) => c.runtimeLabel === label)?.runDetails.map((r) => r.serverProcess);
    expect(pids('node-A')).toEqual(pids('node-B'));
    // Their start-ups are charged to restarts in the report's timing, not to the runs around them.
    expect(report.timing?.phasesSec.restart ?? 0).toBeGreaterThan(0);
    const [cell] = report.ab?.cells ?? [];
    const shared = cell?.sharedRounds ?? 0;
    expect(cell).toMatchObject({ runtime: 'node', scenario: 'spin', mode: 'sync', pairs: 6 - shared, margin: 0.05 });
    if (shared <= 1) expect(cell?.processPairs).toBe(3);
    expect(['regressed', 'improved', 'unchanged', 'inconclusive']).toContain(cell?.verdict);
    // A busy host can leave out so many rounds as shared that no interval remains: then the
    // verdict is inconclusive, with its reason.
    if (cell?.ci95 === undefined) expect(cell).toMatchObject({ verdict: 'inconclusive', reason: expect.any(String) });
    else expect(cell.ci95[0]).toBeLessThanOrEqual(cell.ratio ?? 0);
    // The exit code follows the verdicts: 1 exactly when a cell regressed.
    expect(code, stderr).toBe(cell?.verdict === 'regressed' ? 1 : 0);
    expect(stdout).toMatch(/\d+ regressed, \d+ improved, \d+ no change, \d+ could not tell/);
    // The verdicts are what the run was for: the first section under the title.
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md.split('\n').find((line) => line.startsWith('## '))).toBe('## A/B');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html.indexOf('<h2')).toBe(html.indexOf('<h2 id="ab">'));
  });

  it("--profile: each side profiled on a server of its own, the report naming both profiles and each side's own module as what held the loop", {
    timeout: 90_000,
  }, async () => {
    // A request that holds the loop past the 10 ms a stall needs: each side's own function is named.
    const hold = (ms: number) =>
      `export const name = 'hold';\nexport const description = 'a busy wait';\nexport const modes = ['sync'];\nexport function sync() {\n  const end = Date.now() + ${ms};\n  while (Date.now() < end) {}\n  return { ok: true };\n}\n`;
    const a = moduleFile('hold-a.mjs', hold(15));
    const b = moduleFile('hold-b.mjs', hold(16));
    const out = join(tmp, 'profiled');
    // One measured round: what is asserted comes from the profiled servers, which run after the rounds.
    const short = ['--duration', '0.3', '--warmup', '0', '--min-requests', '0', '--cross-check', 'none', '--profile'];
    const { code, stderr } = await ab(['--a', `file:${a}`, '--b', `file:${b}`, ...quick(1), ...short, '--out', out]);
    expect([0, 1], stderr).toContain(code);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    for (const [lane, file] of [
      ['node-A', 'hold-a.mjs'],
      ['node-B', 'hold-b.mjs'],
    ] as const) {
      const profile = report.results.find((c) => c.runtimeLabel === lane)?.profile;
      expect(profile?.reason, lane).toBeUndefined();
      expect(profile?.file, lane).toBe(`profiles/${lane}-hono/hold-sync.cpuprofile`);
      expect(existsSync(join(out, profile?.file ?? 'none')), lane).toBe(true);
      const holder = profile?.summary?.late?.holders[0];
      expect(holder, lane).toMatchObject({ name: 'sync', where: expect.stringContaining(file) });
      expect(md).toContain(`\`${profile?.file}\``);
      expect(md).toMatch(
        new RegExp(`- ${lane} sync: main thread busy .*while the loop was late .*% in sync \\([^)]*${file.replace('.', '\\.')}`),
      );
    }
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
  });

  it('measures nothing for two commits whose servers read the same files, saying so, and installs neither', async () => {
    // A commit of HEAD's tree plus a docs file, written to an object store of the test's own (the
    // repository's as its alternate): the repository's objects and refs stay as they were.
    const repo = resolve(HARNESS, '..');
    const common = resolve(repo, execFileSync('git', ['rev-parse', '--git-common-dir'], { cwd: repo, encoding: 'utf8' }).trim());
    mkdirSync(join(tmp, 'objects'));
    const env = {
      ...process.env,
      GIT_OBJECT_DIRECTORY: join(tmp, 'objects'),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(common, 'objects'),
      GIT_INDEX_FILE: join(tmp, 'index'),
    };
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8', input }).trim();
    const head = git(['rev-parse', 'HEAD']);
    git(['read-tree', 'HEAD']);
    git(['update-index', '--add', '--cacheinfo', `100644,${git(['hash-object', '-w', '--stdin'], 'a note\n')},docs/ab-scope-note.md`]);
    const docsOnly = git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit-tree', git(['write-tree']), '-p', head, '-m', 'docs only']);
    const worktree = (commit: string) => existsSync(resolve(repo, 'data/ab', commit));
    const headBefore = worktree(head);
    const { code, stdout, stderr } = await abIn(env, [
      '--a',
      `ref:${head}`,
      '--b',
      `ref:${docsOnly}`,
      ...quick(),
      '--out',
      join(tmp, 'same'),
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr.trim()).toBe(
      `bench:ab: ${head.slice(0, 10)} and ${docsOnly.slice(0, 10)} differ in 1 file, none of them read by a server (the harness, docs, tests): no cell can differ, so none is measured (--scenarios measures them anyway)`,
    );
    expect(stdout).toBe('');
    expect(worktree(docsOnly)).toBe(false);
    expect(worktree(head)).toBe(headBefore);
    expect(existsSync(join(tmp, 'same'))).toBe(false);
  });

  it('stops a bad variant with one line and exit 2 before any server starts', async () => {
    const a = moduleFile('spin-c.mjs', spin(1000));
    const other = moduleFile('other.mjs', spin(1000).replace("'spin'", "'other'"));
    for (const [argv, line] of [
      [['--a', `file:${a}`, '--b', 'env:X=1'], /both sides must be of one kind/],
      [['--a', `file:${a}`, '--b', `file:${other}`], /the modules must share their name \("spin", "other"\)/],
      [['--a', 'env:X=1', '--b', 'nonsense'], /--b nonsense: a variant is/],
      [['--a', 'env:X=1'], /needs --a VARIANT and --b VARIANT/],
    ] as const) {
      const { code, stderr } = await ab([...argv, ...quick(), '--out', join(tmp, 'bad')]);
      expect(code, stderr).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(line);
    }
    expect(processesMentioning(tmp)).toEqual([]);
  });
});

describe('bench:ab and a second Ctrl-C', () => {
  it('stops at once: exit 130, and every cell finished before the first Ctrl-C in the report', async () => {
    const dir = join(tmp, 'twice');
    // One cell to finish (hello's baseline, in short runs) before the sleep cell the stop comes in:
    // hello's raw cell would add a server of another kind to each side and nothing to assert.
    const argv = [
      ...['--a', 'env:AB_SIDE=a', '--b', 'env:AB_SIDE=b', '--runtimes', 'node', '--quick', '--duration', '0.1'],
      ...['--scenarios', 'hello,sleep', '--modes', 'baseline,sync'],
    ];
    const child = spawn(process.execPath, [...HARNESS_NODE_ARGS, resolve(HARNESS, 'src/ab-cli.ts'), ...argv, '--out', dir], {
      cwd: HARNESS,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = ended(child);
    const { text, seen } = stderrWatch(child, 'bench:ab');
    await seen(/^node-[AB] hello\/\w+: /m);
    await seen(/node-[AB] sleep\/\w+ check/);
    // One-second waits hold each server's loop, so the orderly stop the first Ctrl-C starts is
    // still under way when the second comes (faults.test.ts does the same for bench).
    const servers = processTree(child.pid!)
      .filter((pid) => processesMentioning('node/server.ts').includes(pid))
      .filter(isAlive);
    expect(servers.length).toBeGreaterThan(0);
    for (const port of servers.flatMap(listeningPorts))
      for (let i = 0; i < 3; i++)
        fetch(`http://127.0.0.1:${port}/sleep/sync?ms=1000`, { signal: AbortSignal.timeout(10_000) }).catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    const finished = [...text().matchAll(/^(node-[AB]) (\w+)\/(\w+): /gm)].map(
      ([, label, scenario, mode]) => `${label} ${scenario}/${mode}`,
    );
    const tree = processTree(child.pid!);
    child.kill('SIGINT');
    await seen(/SIGINT: stopping the load/);
    await new Promise((r) => setTimeout(r, SAME_REQUEST_MS + 100));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(text()).toMatch(/SIGINT again: stopping at once/);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.status).toBe('interrupted');
    const kept = report.results.map((c) => `${c.runtimeLabel} ${c.scenario}/${c.mode}`);
    expect(finished.length).toBeGreaterThan(0);
    for (const cell of finished) expect(kept).toContain(cell);
    await new Promise((r) => setTimeout(r, 500));
    expect(tree.filter(isAlive)).toEqual([]);
  }, 60_000);
});
