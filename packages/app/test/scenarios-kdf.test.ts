import { describe, expect, it } from 'vitest';
import * as kdf from '../src/scenarios/kdf.ts';

const input = (query: string) => kdf.input(new URLSearchParams(query));

describe('kdf scenario', () => {
  it('by default derives a 32-byte key with scrypt at N = 2^13 (8 MiB), the same on the pool as on the thread', async () => {
    expect(input('')).toEqual({ algo: 'scrypt', cost: 13 });
    const answer = kdf.sync(input(''));
    expect(answer.key).toMatch(/^[0-9a-f]{64}$/);
    expect(await kdf.async(input(''))).toEqual(answer);
  });

  it('pbkdf2 at 50000 SHA-256 iterations by default; the cost is part of the key', async () => {
    expect(input('algo=pbkdf2')).toEqual({ algo: 'pbkdf2', cost: 50_000 });
    const answer = kdf.sync(input('algo=pbkdf2&iterations=1000'));
    expect(await kdf.async(input('algo=pbkdf2&iterations=1000'))).toEqual(answer);
    expect(kdf.sync(input('algo=pbkdf2&iterations=1001')).key).not.toBe(answer.key);
    expect(kdf.sync(input('logN=10')).key).not.toBe(kdf.sync(input('logN=11')).key);
  });

  it.each([
    ['algo=bcrypt', /algo must be one of scrypt, pbkdf2, got "bcrypt"/],
    ['logN=9', /logN must be an integer from 10 to 16, got "9"/],
    ['logN=17', /logN must be an integer from 10 to 16, got "17"/],
    ['algo=pbkdf2&iterations=999', /iterations must be an integer from 1000 to 600000/],
    ['algo=pbkdf2&iterations=600001', /iterations must be an integer from 1000 to 600000/],
    ['logN=12&logN=13', /logN must be an integer from 10 to 16, got "12,13"/],
  ])('?%s is out of bounds: a RangeError naming them', (query, message) => {
    expect(() => input(query)).toThrow(RangeError);
    expect(() => input(query)).toThrow(message);
  });

  it('reads only the cost parameter of the algorithm asked for', () => {
    expect(input('logN=16&iterations=1')).toEqual({ algo: 'scrypt', cost: 16 });
    expect(input('algo=pbkdf2&logN=99&iterations=600000')).toEqual({ algo: 'pbkdf2', cost: 600_000 });
  });
});
