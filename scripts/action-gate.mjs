// The steps of action.yml (the composite GitHub Action), one subcommand each, so a runner and the
// tests run the same code: `tool` installs this checkout of the tool, `sides` puts the base commit
// in a worktree beside the head and installs each side's dependencies, `ab` compares every module
// across the two with `sync-async-bench ab` and writes the job summary, the outputs and the exit
// code. Inputs come as INPUT_* variables; GitHub's own as GITHUB_* and RUNNER_TEMP.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOL = resolve(new URL('..', import.meta.url).pathname);
const PNPM = 'pnpm@10.34.9';
const env = process.env;
const input = (name) => (env[`INPUT_${name.toUpperCase()}`] ?? '').trim();
const work = () => join(env.RUNNER_TEMP ?? '/tmp', 'sync-async-bench');

/** A `key=value` (or multi-line `key<<EOF`) line in the step's outputs file. */
function setOutput(key, value) {
  if (env.GITHUB_OUTPUT === undefined) return;
  const text = String(value);
  appendFileSync(env.GITHUB_OUTPUT, text.includes('\n') ? `${key}<<__END__\n${text}\n__END__\n` : `${key}=${text}\n`);
}

const summary = (text) => env.GITHUB_STEP_SUMMARY !== undefined && appendFileSync(env.GITHUB_STEP_SUMMARY, text);

function run(command, args, cwd) {
  console.log(`$ ${[command, ...args].join(' ')}${cwd === undefined ? '' : `   (in ${cwd})`}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  return result.status ?? 1;
}

const onPath = (binary) => spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;

/** A step that cannot go on: one line, exit 2 (bad input, as the harness's commands say it). */
function refuse(line) {
  console.error(`sync-async-bench action: ${line}`);
  process.exit(2);
}

/**
 * This checkout of the tool, installed once: the runner checks the action out without its
 * node_modules. A checkout that has them (a local run of these steps) is used as it is.
 */
function tool() {
  if (existsSync(join(TOOL, 'harness/node_modules/tsx/package.json'))) return;
  // --prod: the harness, the app, the servers and the pinned runtimes, not the repository's test tools.
  const code = run('npx', ['--yes', PNPM, 'install', '--frozen-lockfile', '--prod', '--reporter=append-only'], TOOL);
  if (code !== 0) process.exit(code);
}

/** The install command of a project, from its lockfile: the caller's `install` input wins. */
export function installCommand(dir, given = '') {
  if (given !== '') return given;
  const has = (file) => existsSync(join(dir, file));
  const via = (binary, args) => `${onPath(binary) ? binary : `npx --yes ${binary === 'pnpm' ? PNPM : binary}`} ${args}`;
  if (has('pnpm-lock.yaml')) return via('pnpm', 'install --frozen-lockfile');
  if (has('bun.lock') || has('bun.lockb')) return via('bun', 'install --frozen-lockfile');
  if (has('yarn.lock')) return via('yarn', 'install');
  if (has('package-lock.json') || has('npm-shrinkwrap.json')) return 'npm ci --no-audit --no-fund';
  if (has('package.json')) return 'npm install --no-audit --no-fund';
  return '';
}

/** The base commit: the `base` input, else the pull request's base from the event. */
function baseCommit() {
  const given = input('base');
  if (given !== '') return given;
  try {
    const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? '', 'utf8'));
    const sha = event.pull_request?.base?.sha;
    if (typeof sha === 'string') return sha;
  } catch {
    // No event file: not a pull request run; the input must say.
  }
  return refuse('no base commit: this is not a pull_request event, so give the action a `base:` (a commit, branch or tag)');
}

function sides() {
  const head = env.GITHUB_WORKSPACE ?? process.cwd();
  const git = (args) => execFileSync('git', args, { cwd: head, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const base = baseCommit();
  let commit;
  try {
    commit = git(['rev-parse', '--verify', `${base}^{commit}`]);
  } catch {
    // actions/checkout fetches one commit unless told otherwise: fetch the base alone.
    if (run('git', ['fetch', '--no-tags', '--depth=1', 'origin', base], head) !== 0)
      refuse(`base ${base} is not a commit here, nor on origin`);
    commit = git(['rev-parse', '--verify', 'FETCH_HEAD^{commit}']);
  }
  const baseDir = join(work(), 'base');
  if (existsSync(baseDir)) {
    run('git', ['worktree', 'remove', '--force', baseDir], head);
    rmSync(baseDir, { recursive: true, force: true });
  }
  mkdirSync(work(), { recursive: true });
  if (run('git', ['worktree', 'add', '--detach', baseDir, commit], head) !== 0) process.exit(1);
  for (const dir of [head, baseDir]) {
    const command = installCommand(dir, input('install'));
    if (command === '') continue;
    const code = run('sh', ['-c', command], dir);
    if (code !== 0) {
      console.error(`sync-async-bench action: \`${command}\` failed in ${dir === head ? 'the head' : 'the base'} (exit ${code})`);
      process.exit(code);
    }
  }
  setOutput('base-dir', baseDir);
  setOutput('base-commit', commit);
}

/** The `modules` input: paths in the caller's repository, one a line or comma-separated. */
export const moduleList = (raw) =>
  raw
    .split(/[\n,]/)
    .map((m) => m.trim())
    .filter((m) => m !== '');

/**
 * The A/B section of a report.md for the job summary: the verdicts and why, open; from the line
 * that says what A and B were, how it was measured, folded (a summary is read at a glance).
 */
export function abSection(markdown) {
  const lines = markdown.split('\n');
  const start = lines.indexOf('## A/B');
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const fold = section.findIndex((line) => line.startsWith('A: '));
  const open = (fold < 0 ? section : section.slice(0, fold)).join('\n').trim();
  if (fold < 0) return open;
  return `${open}\n\n<details><summary>What A and B were, how they were measured</summary>\n\n${section.slice(fold).join('\n').trim()}\n\n</details>`;
}

/** One word over every module: regressed beats inconclusive beats improved beats unchanged. */
export function overallVerdict(counts, codes) {
  if (codes.some((c) => c === 2)) return 'error';
  if (counts.regressed > 0 || codes.some((c) => c !== 0)) return 'regressed';
  for (const word of ['inconclusive', 'improved', 'unchanged']) if (counts[word] > 0) return word;
  return 'unchanged';
}

const slug = (path) => path.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');

function ab() {
  const head = env.GITHUB_WORKSPACE ?? process.cwd();
  const baseDir = input('base_dir');
  const modules = moduleList(input('modules'));
  if (modules.length === 0) refuse('`modules` is empty: name the scenario modules to compare (paths in your repository)');
  if (baseDir === '' || !existsSync(baseDir)) refuse(`no base worktree at "${baseDir}"`);
  const reportRoot = join(work(), 'report');
  rmSync(reportRoot, { recursive: true, force: true });
  const flags = [];
  const pass = (name, flag = `--${name}`) => input(name) !== '' && flags.push(flag, input(name));
  pass('runtimes');
  pass('modes');
  pass('budget');
  pass('margin');
  if (input('profile') === 'true') flags.push('--profile');
  if (input('flags') !== '') flags.push(...input('flags').split(/\s+/));
  const counts = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 };
  const codes = [];
  const parts = ['## sync-async-bench: base against head\n'];
  for (const module of modules) {
    const a = join(baseDir, module);
    const b = join(head, module);
    if (!existsSync(b)) refuse(`module ${module} is not in the head commit`);
    if (!existsSync(a)) {
      parts.push(`### ${module}\n\nNew in this pull request: nothing to compare it with.\n`);
      continue;
    }
    const out = join(reportRoot, slug(module));
    const code = run(
      process.execPath,
      [join(TOOL, 'bin/sync-async-bench.mjs'), 'ab', '--a', `file:${a}`, '--b', `file:${b}`, ...flags, '--out', out],
      head,
    );
    codes.push(code);
    const md = join(out, 'report.md');
    const json = join(out, 'report.json');
    if (existsSync(json)) {
      const report = JSON.parse(readFileSync(json, 'utf8'));
      for (const word of Object.keys(counts)) counts[word] += report.ab?.counts?.[word] ?? 0;
    }
    const section = existsSync(md) ? abSection(readFileSync(md, 'utf8')) : '';
    parts.push(`### ${module}\n\n${section === '' ? `No report (exit ${code}): the log of this step says why.` : section}\n`);
  }
  const verdict = overallVerdict(counts, codes);
  parts.splice(
    1,
    0,
    `**${verdict}**: ${Object.entries(counts)
      .map(([word, n]) => `${n} ${word}`)
      .join(', ')} cells\n`,
  );
  summary(`${parts.join('\n')}\n`);
  setOutput('verdict', verdict);
  setOutput('report', existsSync(reportRoot) ? reportRoot : '');
  // bench:ab's exit codes: 2 for bad input, 1 for a regression (or B failing where A measured).
  process.exitCode = codes.includes(2) ? 2 : codes.some((c) => c !== 0) ? 1 : 0;
}

const STEPS = { tool, sides, ab };
const step = process.argv[2];
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!Object.hasOwn(STEPS, step)) refuse(`unknown step "${step}"; one of ${Object.keys(STEPS).join(', ')}`);
  STEPS[step]();
}
