import { randomFillSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FincoreEntry } from '../src/system/page-cache.ts';
import { primeFiles } from '../src/system/data-files.ts';
import {
  coldCacheSupport,
  ddShells,
  evictAndVerify,
  evictFiles,
  residentFractionOf,
  parseFincore,
  residentFraction,
} from '../src/system/page-cache.ts';

const MB = 1024 * 1024;
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures/page-cache', name), 'utf8');

// Real output of util-linux 2.38.1 `fincore --json --bytes -- ...` on ext4.
describe('parseFincore', () => {
  it('reads each file with its resident bytes and size', () => {
    const entries = parseFincore(fixture('fincore-mixed.json'));
    expect(entries).toEqual([
      { file: 'warm.bin', res: 4 * MB, size: 4 * MB },
      { file: 'partial.bin', res: 2 * MB, size: 3_000_000 },
      { file: 'cold.bin', res: 0, size: 2 * MB },
      { file: 'empty.bin', res: 0, size: 0 },
      { file: 'name with "quotes".bin', res: 4 * MB, size: 4 * MB },
    ]);
  });

  it('keeps the files fincore could open when one is missing (fincore then exits 1)', () => {
    expect(parseFincore(fixture('fincore-missing-file.json')).map((e) => e.file)).toEqual(['warm.bin']);
  });

  it('reads an empty list', () => {
    expect(parseFincore(fixture('fincore-none.json'))).toEqual([]);
  });

  it('accepts numbers printed as strings, as util-linux before 2.33 did', () => {
    const text = '{"fincore": [{"res": "4096", "pages": "1", "size": "8192", "file": "a"}]}';
    expect(parseFincore(text)).toEqual([{ file: 'a', res: 4096, size: 8192 }]);
  });

  it('rejects other shapes instead of guessing', () => {
    expect(() => parseFincore('{"files": []}')).toThrow(/"fincore" array/);
    expect(() => parseFincore('{"fincore": [{"res": 1, "size": 2}]}')).toThrow(/file name/);
    expect(() => parseFincore('{"fincore": [{"res": "1.2M", "size": 2, "file": "a"}]}')).toThrow(/res for a/);
    expect(() => parseFincore('  RES PAGES SIZE FILE')).toThrow();
  });
});

describe('residentFractionOf', () => {
  it('is resident bytes over total bytes across all files', () => {
    const entries = parseFincore(fixture('fincore-mixed.json'));
    const total = 4 * MB + 3_000_000 + 2 * MB + 4 * MB;
    expect(residentFractionOf(entries)).toBeCloseTo((4 * MB + 2 * MB + 4 * MB) / total, 12);
  });

  it('caps a file at its size: a cached partial last page counts as a whole page', () => {
    // Captured: a fully cached 3,000,000-byte file shows res 3,002,368 (733 pages).
    const entries: FincoreEntry[] = [{ file: 'a.bin', res: 3_002_368, size: 3_000_000 }];
    expect(residentFractionOf(entries)).toBe(1);
  });

  it('is 0 when there are no bytes', () => {
    expect(residentFractionOf([])).toBe(0);
    expect(residentFractionOf([{ file: 'empty', res: 0, size: 0 }])).toBe(0);
  });
});

// Probed once at load: describe.skipIf needs the answer while tests are collected.
const support = await coldCacheSupport();
const skipReal = !support.ok && !process.env.CI;
if (skipReal && !support.ok) {
  console.warn(`[page-cache] SKIPPING real eviction tests: ${support.reason} (set CI to make this a failure)`);
}

describe.skipIf(skipReal)('eviction on real files', () => {
  let dir = '';
  let paths: string[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'page-cache-test-'));
    paths = [1, 2, 4].map((mb) => {
      const path = join(dir, `file-${mb}mb.bin`);
      writeFileSync(path, randomFillSync(new Uint8Array(mb * MB)));
      return path;
    });
  });

  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('works here (fails under CI when it does not)', () => {
    expect(support).toEqual({ ok: true, method: expect.stringMatching(/^(fadvise|drop_caches)$/) });
  });

  it('evicts files that were cached, and a read brings one back', async () => {
    for (const path of paths) readFileSync(path);
    expect(await residentFraction(paths)).toBeGreaterThan(0.9);

    const verified = await evictAndVerify(paths);
    expect(verified).toMatchObject({ ok: true });
    expect(verified.residentBefore).toBeGreaterThan(0.9);
    expect(verified.residentAfter).toBeLessThanOrEqual(0.05);
    expect(await residentFraction(paths)).toBeLessThanOrEqual(0.05);

    const [, , largest] = paths as [string, string, string];
    readFileSync(largest);
    expect(await residentFraction([largest])).toBeGreaterThan(0.9);
  });

  it('primes evicted files back into the cache, every byte of each (the file scenario before its cells)', async () => {
    expect(await evictAndVerify(paths)).toMatchObject({ ok: true });
    primeFiles(paths);
    expect(await residentFraction(paths)).toBeGreaterThan(0.95);
  });

  it('evicts 100 files with a few shells, not a process a file', async () => {
    const many = Array.from({ length: 100 }, (_, i) => {
      const path = join(dir, `small-${i}.bin`);
      writeFileSync(path, randomFillSync(new Uint8Array(64 * 1024)));
      return path;
    });
    // A Node spawn a file costs 3-5 ms on a loaded host (over 300 ms for 100 files): the files
    // go to a few shells, each file once, in order.
    const shells = ddShells(many);
    expect(shells.length).toBeLessThanOrEqual(8);
    expect(shells.flatMap((argv) => argv.slice(3))).toEqual(many);
    for (const path of many) readFileSync(path);
    expect(await evictFiles(many)).toEqual({ ok: true, method: support.ok ? support.method : 'fadvise' });
    expect(await residentFraction(many)).toBeLessThanOrEqual(0.05);
  });

  it('rejects a missing file instead of reporting a fraction over fewer files', async () => {
    const missing = join(dir, 'missing.bin');
    await expect(residentFraction([paths[0] as string, missing])).rejects.toThrow(/fincore failed|ENOENT/);
    await expect(evictFiles([missing])).rejects.toThrow(/ENOENT/);
  });

  it('counts no files as nothing cached', async () => {
    expect(await residentFraction([])).toBe(0);
  });
});
