import { describe, expect, it } from 'vitest';
import * as json from '../src/scenarios/json.ts';

const input = (query: string) => json.input(new URLSearchParams(query));

describe('json scenario', () => {
  it('by default round-trips a ~0.5 MB document of records, text for text', async () => {
    await json.setup();
    const answer = json.sync(input(''));
    expect(answer.kb).toBe(512);
    // The document ends at the first record past the size; records are a few hundred bytes.
    expect(answer.chars).toBeGreaterThanOrEqual(512 * 1024);
    expect(answer.chars).toBeLessThan(513 * 1024);
    expect(answer.records).toBeGreaterThan(1000);
  });

  it('documents of other sizes are other documents, each the same every time', () => {
    const small = json.sync(input('kb=1'));
    expect(small.chars).toBeGreaterThanOrEqual(1024);
    expect(small.checksum).not.toBe(json.sync(input('kb=2')).checksum);
    for (const kb of [3, 4, 5, 6, 7]) json.sync(input(`kb=${kb}`)); // past the kept few
    expect(json.sync(input('kb=1'))).toEqual(small);
  });

  it.each([
    ['kb=0', /kb must be an integer from 1 to 8192, got "0"/],
    ['kb=8193', /kb must be an integer from 1 to 8192, got "8193"/],
    ['kb=1.5', /kb must be an integer from 1 to 8192/],
    ['kb=-1', /kb must be an integer from 1 to 8192/],
    ['kb=', /kb must be an integer from 1 to 8192/],
    ['kb=1&kb=2', /kb must be an integer from 1 to 8192, got "1,2"/],
  ])('?%s is out of bounds: a RangeError naming them', (query, message) => {
    expect(() => input(query)).toThrow(RangeError);
    expect(() => input(query)).toThrow(message);
  });

  it('accepts its bounds', () => {
    expect(input('kb=1')).toEqual({ kb: 1 });
    expect(input('kb=8192')).toEqual({ kb: 8192 });
  });
});
