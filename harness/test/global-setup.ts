/**
 * Before any test file: the default data files (data/files), which the remote tests' servers and
 * bench:seeds read. On a fresh clone the first run that needs them makes them; with test files
 * running side by side, two could start making them at once and read each other's half-written
 * set. Made here once, every later ensureDataFiles finds them complete.
 *
 * After the last file: every browser a worker kept for its files (browser/chromium.ts) is gone.
 * Those outlive the files that used them, so this is the one place that runs after all of them.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { DEFAULT_DATA_DIR, ensureDataFiles } from '../src/system/data-files.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where browser/chromium.ts records each browser's process group and profile. */
    browserGroups: string;
  }
}

export default function setup(project: TestProject): () => void {
  ensureDataFiles(DEFAULT_DATA_DIR, undefined, undefined, (line) => console.log(`global setup: ${line}`));
  const groups = mkdtempSync(join(tmpdir(), 'browser-groups-'));
  project.provide('browserGroups', groups);
  return () => {
    for (const name of readdirSync(groups).filter((n) => n.endsWith('.pid'))) {
      try {
        process.kill(-Number(name.slice(0, -'.pid'.length)), 'SIGKILL');
      } catch {
        // gone with its worker, as it should be
      }
    }
    rmSync(groups, { recursive: true, force: true });
  };
}
