// `pnpm test`: format, lint and unused-code checks, typecheck every package, run every package's
// vitest suite, then print one closing line summed over all packages.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const packageDirs = ['packages', 'runtimes']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .concat(join(root, 'harness'));
const resultFile = (dir) => join(dir, 'test-results', 'vitest.json');
for (const dir of packageDirs) rmSync(resultFile(dir), { force: true });

// Turbo's telemetry notice would greet every new user: off, as in CI.
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const run = (args) => spawnSync('turbo', args, { stdio: 'inherit', cwd: root, shell: false, env }).status ?? 1;
// The house rules first, in a second or two: format and lint (Biome), then unused files, exports
// and dependencies (knip). A failure here names the file and the rule, and no suite runs.
const tool = (bin, args) => spawnSync(join(root, 'node_modules', '.bin', bin), args, { stdio: 'inherit', cwd: root, env }).status ?? 1;
let status = tool('biome', ['ci', '--reporter=summary', '.']);
if (status === 0) status = tool('knip', ['--no-progress']);
const started = (args) =>
  new Promise((done) => {
    const child = spawn('turbo', args, { stdio: 'inherit', cwd: root, shell: false, env });
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });
const suiteArgs = ['--', ...process.argv.slice(2)];
// The type check beside the app's suite: that suite runs one file at a time, leaving a core idle,
// and its hang guards (a worst-case query within 10 s, about 1.6 s alone) hold beside a compiler.
// Not beside the harness's suite: its integration files start real servers and fill both cores.
if (status === 0) {
  const [typecheck, app] = await Promise.all([
    started(['run', 'typecheck']),
    started(['run', 'test', '--filter=@bench/app', ...suiteArgs]),
  ]);
  status = typecheck !== 0 ? typecheck : app;
}
if (status === 0) status = run(['run', 'test', '--filter=!@bench/app', ...suiteArgs]);

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of packageDirs) {
  if (!existsSync(resultFile(dir))) continue;
  const result = JSON.parse(readFileSync(resultFile(dir), 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  skipped += result.numPendingTests + result.numTodoTests;
}
if (status !== 0 && failed === 0) failed = 1; // a typecheck or a suite that died before reporting
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status);
