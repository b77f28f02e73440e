/** A profiled function's name as a reader recognises it: a regular expression by its first characters. */
import { describe, expect, it } from 'vitest';
import { LONGEST, readableName } from '../src/profile/function-name.ts';

describe('readableName', () => {
  it('keeps the names functions have', () => {
    for (const name of ['fibPlain', 'get foo', '(anonymous)', 'Module._load', '<computed>', '(garbage collector)', 'bound hashSync'])
      expect(readableName(name)).toBe(name);
  });

  it('names a regular expression RegExp /…/ by its first characters, whether written as a literal or as its bare source', () => {
    const marked = `^(?! {0,3}(?:\\\\[^\\n]*\\n|[*+-]|\\d{1,9}[.)])|${'(?:[^\\n]+(?:\\n(?!\\s*\\n)|$))'.repeat(14)}`;
    expect(readableName(marked)).toBe('RegExp /^(?! {0,3}…/');
    expect(readableName(`/${marked}/gm`)).toBe('RegExp /^(?! {0,3}…/gm');
    expect(readableName('/ab+c/i')).toBe('RegExp /ab+c/i');
    // Read again (a report summarised by this code, rendered later): unchanged.
    expect(readableName(readableName(marked))).toBe('RegExp /^(?! {0,3}…/');
  });

  it(`cuts any other name past ${LONGEST} characters`, () => {
    const long = `a${'b'.repeat(100)}`;
    expect([...readableName(long)]).toHaveLength(LONGEST + 1);
    expect(readableName(long).endsWith('…')).toBe(true);
  });
});
