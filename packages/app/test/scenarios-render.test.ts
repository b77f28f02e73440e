import { describe, expect, it } from 'vitest';
import * as render from '../src/scenarios/render.ts';

const input = (query: string) => render.input(new URLSearchParams(query));

describe('render scenario', () => {
  it('by default renders a page of 1000 products, ~0.5 KB of HTML each', () => {
    const answer = render.sync(input(''));
    expect(answer.rows).toBe(1000);
    expect(answer.bytes).toBeGreaterThan(300 * 1000);
    expect(answer.bytes).toBeLessThan(800 * 1000);
  });

  it('escapes every value it interpolates and leaves its own markup alone', () => {
    const page = render.renderPage(40);
    expect(page).toContain('&lt;Limited&gt;');
    expect(page).toContain('&quot;Classic&quot;');
    expect(page).toContain('Oak &amp; Iron');
    expect(page).not.toMatch(/<Limited>|"Classic"/);
    expect(page.match(/<tr id="p\d+"/g)).toHaveLength(40);
    expect(page).toMatch(/^<!doctype html>[\s\S]*<\/html>$/);
  });

  it('answers the page byte length in UTF-8 and a checksum that tells pages apart', () => {
    const answer = render.sync(input('rows=40'));
    expect(answer.bytes).toBe(new TextEncoder().encode(render.renderPage(40)).byteLength);
    expect(render.sync(input('rows=41')).checksum).not.toBe(answer.checksum);
  });

  it.each([
    ['rows=0', /rows must be an integer from 1 to 20000, got "0"/],
    ['rows=20001', /rows must be an integer from 1 to 20000/],
    ['rows=ten', /rows must be an integer from 1 to 20000/],
  ])('?%s is out of bounds: a RangeError naming them', (query, message) => {
    expect(() => input(query)).toThrow(RangeError);
    expect(() => input(query)).toThrow(message);
  });
});
