import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadUserScenarios, setupUserScenarios } from '../src/servers/user-scenarios.ts';

const tmp = mkdtempSync(join(tmpdir(), 'user-scenarios-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the user's modules, set up before any server starts", () => {
  it('generates the input files first for a module that reads them, whose setup() reads their manifest', async () => {
    // the file scenario's own module under another name: its setup() throws without a manifest
    const module = join(import.meta.dirname, '../../docs/examples/ab/file.ts');
    expect(await loadUserScenarios([module], 'bench')).toEqual([module]);
    const dataDir = join(tmp, 'data');
    const plan = { dataDir, hashCost: 4, fibN: 20, sleepMs: 1, fileCount: 2, fileSizeBytes: 4096 };
    expect(await setupUserScenarios(plan, 'bench')).toBe(true);
    expect(existsSync(join(dataDir, 'manifest.json'))).toBe(true);
  });
});
