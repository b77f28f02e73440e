/**
 * What a user sees from the root commands: the harness's own output, nothing of pnpm's or
 * Turbo's around it. A bad flag's one line is the last line shown, with exit code 2 (pnpm's
 * " ELIFECYCLE  Command failed" line is off: reporter silent in pnpm-workspace.yaml).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PNPM = join(ROOT, 'node_modules/.bin/pnpm');

describe.skipIf(!existsSync(PNPM))('root bench commands print the harness output alone', () => {
  it.each([
    ['bench:curve', "curve: Unknown option '--nonsense'"],
    ['bench:node', "bench: Unknown option '--nonsense'"],
  ])(
    'pnpm %s --nonsense: exit 2, the harness line last, no prefix or banner',
    (script, line) => {
      const env = { ...process.env };
      // A new user's environment: nothing set to quiet Turbo.
      delete env.TURBO_TELEMETRY_DISABLED;
      const result = spawnSync(PNPM, [script, '--nonsense'], { cwd: ROOT, encoding: 'utf8', env, timeout: 60_000 });
      const lines = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => l.trim() !== '');
      expect(result.status).toBe(2);
      expect(lines.at(-1)).toBe(line);
      expect(lines.join('\n')).not.toMatch(/@bench\/harness:|turbo|ELIFECYCLE|Telemetry/i);
    },
    70_000,
  );
});

describe('warnings a command prints', () => {
  it("leave out Node's negative-timeout warning (autocannon's timer under load), and print every other", () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-warn-'));
    try {
      const script = join(dir, 'warn.ts');
      const command = join(ROOT, 'harness/src/cli/command.ts');
      writeFileSync(
        script,
        `import { runCommand } from ${JSON.stringify(command)};\n` +
          "runCommand('t', async () => { setTimeout(() => {}, -3); process.emitWarning('another warning'); await new Promise((r) => setTimeout(r, 20)); return 0; });\n",
      );
      const result = spawnSync(join(ROOT, 'harness/node_modules/.bin/tsx'), [script], { encoding: 'utf8', timeout: 30_000 });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toContain('another warning');
      expect(result.stderr).not.toContain('TimeoutNegativeWarning');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
