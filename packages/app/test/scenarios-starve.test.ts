import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as starve from '../src/scenarios/starve.ts';

const input = (query: string) => starve.input(new URLSearchParams(query));
const SOURCE = readFileSync(new URL('../src/scenarios/starve.ts', import.meta.url));

describe('starve scenario', () => {
  it('by default starts four pool calls of 5000 iterations before the read', () => {
    expect(input('')).toEqual({ blockers: 4, iterations: 5000 });
  });

  it('answers the small file it read, the same behind the blockers on the pool as after them on the thread', async () => {
    const want = { blockers: 2, iterations: 1000, bytes: SOURCE.byteLength, checksum: crc32(SOURCE) };
    expect(starve.sync(input('blockers=2&iterations=1000'))).toEqual(want);
    expect(await starve.async(input('blockers=2&iterations=1000'))).toEqual(want);
    expect(await starve.async(input('blockers=0'))).toMatchObject({ bytes: SOURCE.byteLength });
  });

  it.each([
    ['blockers=17', /blockers must be an integer from 0 to 16, got "17"/],
    ['iterations=0', /iterations must be an integer from 1 to 200000, got "0"/],
    ['iterations=200001', /iterations must be an integer from 1 to 200000/],
    [
      'blockers=16&iterations=25001',
      /blockers x iterations must be at most 400000, got 16 x 25001 = 400016 \(at 16 blockers, iterations at most 25000\)/,
    ],
    ['blockers=3&iterations=200000', /blockers x iterations must be at most 400000/],
  ])('?%s is out of bounds: a RangeError naming them', (query, message) => {
    expect(() => input(query)).toThrow(RangeError);
    expect(() => input(query)).toThrow(message);
  });

  it('accepts the corners of the joint bound', () => {
    expect(input('blockers=16&iterations=25000')).toEqual({ blockers: 16, iterations: 25_000 });
    expect(input('blockers=2&iterations=200000')).toEqual({ blockers: 2, iterations: 200_000 });
  });
});
