/**
 * A profiled function's name as a reader recognises it. JavaScriptCore names a regular
 * expression's frame by its whole source, so one of marked's 500-character patterns would stand
 * as "what held the loop" and push every box it is in apart: it reads `RegExp /^(?! {0,3}…/`
 * instead, its file and line beside it as for any function. Any other name past LONGEST is cut
 * the same way. Pure, and importing nothing, so it goes wherever the profile summariser goes.
 */

/** Characters a function's name is made of (V8, JSC and Deno's own names included: "get foo", "(anonymous)", "Module._load", "<computed>"). */
const NAME_LIKE = /^[\p{L}\p{N}_$.<>#@\s:[\]()*-]*$/u;
/** A regular expression written as a literal, flags and all. */
const LITERAL = /^\/(.+)\/([dgimsuvy]*)$/su;

/** The pattern's first characters shown. */
const PATTERN_HEAD = 10;
/** A name longer than this is cut. */
export const LONGEST = 60;

const cut = (text: string, length: number): string => {
  const chars = [...text];
  return chars.length <= length ? text : `${chars.slice(0, length).join('')}…`;
};

export function readableName(name: string): string {
  // Already shortened (a profile summarised by this code, read again by a renderer).
  if (name.startsWith('RegExp /') && [...name].length <= LONGEST) return name;
  const literal = LITERAL.exec(name);
  if (literal !== null || !NAME_LIKE.test(name)) {
    const source = literal?.[1] ?? name;
    const flags = literal?.[2] ?? '';
    const shown = [...source].length <= PATTERN_HEAD + 8 ? source : cut(source, PATTERN_HEAD);
    return `RegExp /${shown}/${flags}`;
  }
  return cut(name, LONGEST);
}
