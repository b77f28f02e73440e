import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeRunDir, readCells, updateLatest, writeCell, writeCellProfile, writeFileAtomic } from '../src/model/run-files.ts';
import { makeCell } from './fixtures.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bench-out-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('results folders', () => {
  it('two runs in the same second get separate folders', () => {
    const now = new Date('2026-11-21T10:00:00.123Z');
    const a = makeRunDir(root, now);
    const b = makeRunDir(root, now);
    expect(a).toMatch(/2026-11-21T10-00-00Z$/);
    expect(b).toMatch(/2026-11-21T10-00-00Z-2$/);
  });

  it('latest always points at a whole folder, replaced atomically', () => {
    const a = makeRunDir(root, new Date('2026-11-21T10:00:00Z'));
    const b = makeRunDir(root, new Date('2026-11-21T10:00:05Z'));
    updateLatest(root, a);
    expect(readlinkSync(join(root, 'latest'))).toBe('2026-11-21T10-00-00Z');
    updateLatest(root, b);
    expect(readlinkSync(join(root, 'latest'))).toBe('2026-11-21T10-00-05Z');
    // no temporary links left behind
    expect(readdirSync(root).sort()).toEqual(['2026-11-21T10-00-00Z', '2026-11-21T10-00-05Z', 'latest']);
  });

  it('writes files whole and leaves no temporary file', () => {
    const path = join(root, 'a', 'report.json');
    writeFileAtomic(path, 'one');
    writeFileAtomic(path, 'two');
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(readdirSync(join(root, 'a'))).toEqual(['report.json']);
  });

  it('each finished cell is its own file, read back for the merge', () => {
    const dir = makeRunDir(root);
    writeCell(dir, makeCell({ runtime: 'bun', scenario: 'hash', mode: 'sync' }), false);
    writeCell(dir, makeCell({ runtime: 'node', scenario: 'sleep', mode: 'async' }), false);
    writeCell(dir, makeCell({ runtime: 'bun', scenario: 'hash', mode: 'sync', status: 'failed' }), false);
    const cells = readCells(dir);
    expect(cells.map((c) => `${c.runtime}/${c.scenario}/${c.mode}/${c.status}`)).toEqual(['bun/hash/sync/failed', 'node/sleep/async/ok']);
    expect(readCells(join(root, 'missing'))).toEqual([]);
  });

  it("a cell's profile is kept beside it, its file written once, and read back with it", () => {
    const dir = makeRunDir(root);
    const cell = makeCell({ runtime: 'node', scenario: 'hash', mode: 'sync', connections: 10 });
    const path = writeCell(dir, cell, true);
    const written = readFileSync(path, 'utf8');
    const profile = {
      file: 'profiles/node-hono/hash-sync.cpuprofile',
      processFile: 'profiles/node-hono/process.cpuprofile',
      windowUs: { from: 1, to: 2 },
      requestedIntervalUs: 100,
      load: { connections: 10, durationSec: 1, requestsPerSec: 5 },
    };
    writeCellProfile(dir, cell, true, profile);
    expect(readFileSync(path, 'utf8')).toBe(written);
    const [read] = readCells(dir);
    expect(read?.profile).toEqual(profile);
    expect(readCells(dir)).toHaveLength(1);
    writeCell(dir, makeCell({ runtime: 'bun', scenario: 'hash', mode: 'sync' }), false);
    expect(readCells(dir).map((c) => c.profile === undefined)).toEqual([true, false]);
  });
});
