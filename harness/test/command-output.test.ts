/**
 * What a user sees from the root commands: the harness's own output, nothing of pnpm's or
 * Turbo's around it. A bad flag's one line is the last line shown, with exit code 2 (pnpm's
 * " ELIFECYCLE  Command failed" line is off: reporter silent in pnpm-workspace.yaml).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
