import { describe, expect, it } from 'vitest';
import * as gzip from '../src/scenarios/gzip.ts';

const input = (query: string) => gzip.input(new URLSearchParams(query));

describe('gzip scenario', () => {
  it('by default gzips a 512 KiB body that compresses like text, neither like noise nor like one repeated byte', async () => {
    await gzip.setup();
    const answer = gzip.sync(input(''));
    expect(answer).toMatchObject({ codec: 'gzip', kb: 512 });
    expect(answer.bytes).toBeLessThan((512 * 1024) / 3);
    expect(answer.bytes).toBeGreaterThan((512 * 1024) / 50);
  });

  it('brotli at quality 4 beside it, and the same answer from the thread pool', async () => {
    const brotli = gzip.sync(input('codec=brotli'));
    expect(brotli.codec).toBe('brotli');
    expect(brotli.bytes).not.toBe(gzip.sync(input('')).bytes);
    expect(await gzip.async(input('codec=brotli'))).toEqual(brotli);
  });

  it('at its bound, each codec still gives the same bytes on the pool as on the thread', async () => {
    for (const codec of ['gzip', 'brotli']) {
      const atBound = input(`codec=${codec}&kb=${gzip.BOUNDS.kb.max}`);
      expect(await gzip.async(atBound)).toEqual(gzip.sync(atBound));
    }
  });

  it('a smaller body is a prefix of the same stream, so sizes do not regenerate it', () => {
    const small = gzip.sync(input('kb=4'));
    gzip.sync(input('kb=600')); // grows the kept stream
    expect(gzip.sync(input('kb=4'))).toEqual(small);
    expect(small.bytes).toBeLessThan(4096);
  });

  it.each([
    ['codec=zstd', /codec must be one of gzip, brotli, got "zstd"/],
    ['codec=gzip&codec=brotli', /codec must be one of gzip, brotli/],
    ['kb=0', /kb must be an integer from 1 to 4096, got "0"/],
    ['kb=4097', /kb must be an integer from 1 to 4096/],
    ['kb=2e3', /kb must be an integer from 1 to 4096/],
  ])('?%s is out of bounds: a RangeError naming them', (query, message) => {
    expect(() => input(query)).toThrow(RangeError);
    expect(() => input(query)).toThrow(message);
  });
});
