/**
 * The docs' pictures are drawn from the committed samples (pnpm docs:results --pictures): here
 * the bench sample's sleep charts are drawn into a scratch copy of the repository's layout and
 * must come out as a PNG of the charts' size, with every chart drawn and no page error. The first
 * picture launches its own Chromium as `pnpm docs:results --pictures` does; the refusal draws in the
 * worker's shared one (browser/chromium.ts).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { drawPictures, PICTURES } from '../../src/docs/pictures.ts';
import { killAll, missingReason } from '../../src/browser/driver.ts';
import { pageOf } from '../../src/site-kinds.ts';
import { sharedChromium } from './chromium.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const missing = missingReason('chromium');
const required = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';
if (missing !== undefined && !required) console.warn(`docs pictures test SKIPPED: ${missing}`);

const tmp = mkdtempSync(join(tmpdir(), 'docs-pictures-test-'));
afterAll(() => {
  killAll();
  rmSync(tmp, { recursive: true, force: true });
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.skipIf(missing !== undefined && !required)('docs pictures', () => {
  it("draws the bench sample's sleep charts from its report.json", async () => {
    const bench = PICTURES.find((p) => p.file === 'docs/bench-report.png');
    if (bench === undefined) throw new Error('docs/bench-report.png is not among the pictures docs:results draws');
    mkdirSync(join(tmp, 'docs/results'), { recursive: true });
    cpSync(join(REPO, bench.sample), join(tmp, bench.sample), { recursive: true });
    const written = await drawPictures(tmp, pageOf, [bench]);
    expect(written).toEqual(['docs/bench-report.png']);
    const file = join(tmp, bench.file);
    expect(existsSync(file)).toBe(true);
    const { width, height } = pngSize(file);
    // Three charts in a two-column grid: about the page's width, two rows tall.
    expect(width).toBeGreaterThan(bench.width * 0.8);
    expect(width).toBeLessThanOrEqual(bench.width);
    expect(height).toBeGreaterThan(500);
  }, 60_000);

  it('says which element is missing instead of drawing an empty picture', async () => {
    const bench = PICTURES[0];
    if (bench === undefined) throw new Error('docs:results draws no picture');
    const browser = await sharedChromium();
    await expect(drawPictures(tmp, pageOf, [{ ...bench, selector: '#no-such-section' }], browser)).rejects.toThrow('no #no-such-section');
  }, 60_000);
});
