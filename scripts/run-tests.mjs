// `pnpm test`: format, lint and unused-code checks, typecheck every package, run every package's
// vitest suite, then print one closing line summed over all packages.
import { spawnSync } from 'node:child_process';
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
if (status === 0) status = run(['run', 'typecheck']);
// One package's suite at a time: the harness's integration files start real servers, and the
// app's hang guards (a worst-case query within 10 s) do not hold beside them on two cores.
if (status === 0) status = run(['run', 'test', '--concurrency=1', '--', ...process.argv.slice(2)]);

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
