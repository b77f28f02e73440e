import { describe, expect, it } from 'vitest';
import * as sqlite from '../src/scenarios/sqlite.ts';
import { SQLITE_LOADS } from './catalogue-modules.ts';

const input = (query: string) => sqlite.input(new URLSearchParams(query));

describe('sqlite scenario: bounds', () => {
  it('defaults to the aggregate over 10^5 rows; point looks one row up by its indexed code', () => {
    expect(input('')).toEqual({ query: 'aggregate', rows: 100_000 });
    expect(input('query=point')).toEqual({ query: 'point', key: 4242 });
    expect(input('query=point&key=500000')).toEqual({ query: 'point', key: sqlite.ROWS });
  });

  it.each([
    ['query=range', /query must be one of aggregate, point, got "range"/],
    ['rows=0', /rows must be an integer from 1 to 500000, got "0"/],
    ['rows=500001', /rows must be an integer from 1 to 500000/],
    ['query=point&key=0', /key must be an integer from 1 to 500000/],
    ['query=point&key=1&key=2', /key must be an integer from 1 to 500000, got "1,2"/],
  ])('?%s is out of bounds: a RangeError naming them', (query, message) => {
    expect(() => input(query)).toThrow(RangeError);
    expect(() => input(query)).toThrow(message);
  });
});

describe.skipIf(!SQLITE_LOADS)('sqlite scenario: queries (node:sqlite)', () => {
  it('the aggregate counts exactly the rows asked for', async () => {
    await sqlite.setup();
    for (const rows of [1, 100_000, sqlite.ROWS]) {
      const answer = sqlite.sync(input(`rows=${rows}`)) as Record<string, number>;
      expect(answer).toMatchObject({ query: 'aggregate', rows, orders: rows });
      expect(answer.low).toBeLessThanOrEqual(answer.top!);
      expect(answer.total).toBeGreaterThanOrEqual(answer.top!);
    }
    // Row 1's amount is 48271 % 100000.
    expect(sqlite.sync(input('rows=1'))).toMatchObject({ total: 48_271, low: 48_271, top: 48_271 });
  });

  it('the point lookup finds the row whose code the key maps to, for every key up to the last', () => {
    for (const key of [1, 4242, sqlite.ROWS]) {
      const { row } = sqlite.sync(input(`query=point&key=${key}`)) as { row: Record<string, number> };
      expect(row).toMatchObject({ id: key, code: (key * 7919) % 1_000_003 });
    }
  });
});
