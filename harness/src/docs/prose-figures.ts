/**
 * The figures a page's prose carries outside its result blocks, held against the blocks: a ratio
 * (`1.48x`, `1.15–1.90x`), a time (`55 ms`) or a rate (`393 to 584 req/s`) written by hand must be
 * one its page's blocks show, or it goes stale the day the sample is re-measured. An explanation
 * is marked as one (`~2x`, `≤ 100 ms`: a bound, not a measurement) and is not held. Pure: the docs
 * test (harness/test/docs-prose.test.ts) reads pages through these.
 */
import { findBlocks } from './result-blocks.ts';
import type { Pins } from './sample-conditions.ts';

export interface ProseLine {
  /** 1-based line in the page. */
  line: number;
  text: string;
}

/** Lines outside result blocks, code fences and HTML comments, with inline code dropped. */
export function proseLines(markdown: string): ProseLine[] {
  const blocks = findBlocks(markdown).map((b) => [b.start, b.end] as const);
  const lines: ProseLine[] = [];
  let offset = 0;
  let fence = false;
  markdown.split('\n').forEach((text, i) => {
    const at = offset;
    offset += text.length + 1;
    if (/^\s*(```|~~~)/.test(text)) {
      fence = !fence;
      return;
    }
    if (fence || blocks.some(([start, end]) => at >= start && at < end) || /^\s*<!--.*-->\s*$/.test(text)) return;
    lines.push({ line: i + 1, text: text.replace(/`[^`]*`/g, '').replace(/<!--.*?-->/g, '') });
  });
  return lines;
}

/** The text of every result block on the page, dates and clock times left out (they are not figures). */
export function blocksText(markdown: string): string {
  return findBlocks(markdown)
    .map((b) => b.body)
    .join('\n')
    .replace(/\d{4}-\d{2}-\d{2}/g, ' ')
    .replace(/\b\d{1,2}:\d{2}\b/g, ' ');
}

export interface Figure {
  text: string;
  /** The number, or a range's two ends, as written. */
  numbers: string[];
  kind: 'ratio' | 'time' | 'rate';
}

const NUM = String.raw`\d[\d,]*(?:\.\d+)?`;
const TO = String.raw`\s*(?:–|-|to)\s*`;
// Not inside a word or a longer number, not an approximation (~, ≈), not a bound (≤ 100 ms, at
// most 10 ms) and not a setting named as an attribute (a 20 ms sleep, a 10 ms interval).
const FREE = String.raw`(?<![\w.,~≈≤≥<>=/+−-])(?<![~≈≤≥<>=]\s)(?<!\b(?:[Aa]|[Aa]n|at least|at most|up to|down to|under|over|below|above|within|every|per|each|more than|less than)\s)`;
const PATTERNS: readonly { kind: Figure['kind']; re: RegExp }[] = [
  { kind: 'ratio', re: new RegExp(String.raw`${FREE}(${NUM})(?:[x×]?${TO}(${NUM}))?[x×](?![\w])`, 'g') },
  { kind: 'time', re: new RegExp(String.raw`${FREE}(${NUM})(?:\s?(?:ms|µs))?(?:${TO}(${NUM}))?\s?(?:ms|µs)(?![\w])`, 'g') },
  { kind: 'rate', re: new RegExp(String.raw`${FREE}(${NUM})(?:${TO}(${NUM}))?\s?req(?:uests)?/s(?![\w])`, 'g') },
];

/** The measured-looking figures of one line of prose. */
export function figuresIn(text: string): Figure[] {
  const found: Figure[] = [];
  for (const { kind, re } of PATTERNS) {
    for (const m of text.matchAll(re)) {
      found.push({ text: m[0].trim(), numbers: [m[1], m[2]].filter((n): n is string => n !== undefined), kind });
    }
  }
  return found;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the blocks show this figure: its number as a token, a range's two ends close together in order. */
export function shownIn(figure: Figure, blocks: string): boolean {
  // A number on its own: not part of a longer number, a decimal or a word (a commit's hex), but
  // it may carry its ratio's x.
  const token = (n: string) => String.raw`(?<![\w.,])${escapeRegExp(n)}(?![\d]|[.,]\d|[a-wyzA-Z_])`;
  const re = new RegExp(figure.numbers.map(token).join(String.raw`[^\d\n]{1,14}`));
  return re.test(blocks);
}

export interface Unsupported {
  line: number;
  figure: string;
}

/** Prose figures on a page that none of its blocks shows (all of them on a page without blocks). */
export function unsupportedFigures(markdown: string): Unsupported[] {
  const blocks = blocksText(markdown);
  return proseLines(markdown).flatMap(({ line, text }) =>
    figuresIn(text)
      .filter((f) => !shownIn(f, blocks))
      .map((f) => ({ line, figure: f.text })),
  );
}

/** Prose lines that carry a ratio, an explanation's (`~2x`) included. */
export function ratioLines(markdown: string): ProseLine[] {
  return proseLines(markdown).filter(({ text }) => /(?<![\w.])\d+(?:\.\d+)?[x×](?![\w])/.test(text));
}

/**
 * Sentences of prose that call a runtime version current (pinned, the default, today's, the
 * latest) when it is not the one pinned: "Node 24.21.0, Bun 1.4.5 and Deno 2.9.6 are the pinned
 * packages" beside a pin of 26.12.1. A sentence that also names the pin compares, and passes.
 */
export function staleCurrent(markdown: string, pins: Pins): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (const { line, text: sentence } of proseSentences(markdown)) {
    if (!/\b(current|currently|pinned|default|today's|latest|now)\b/i.test(sentence)) continue;
    for (const m of sentence.matchAll(RUNTIME_VERSION)) {
      const runtime = (m[1] ?? '').toLowerCase() as keyof Pins;
      const pin = pins[runtime];
      if (m[2] !== pin && !sentence.includes(pin)) out.push({ line, text: m[0] });
    }
  }
  return out;
}

/** "Node 24.21.0", "node@22.23.3": a runtime named with an exact version. */
export const RUNTIME_VERSION = /\b(node|bun|deno)(?:\.js)?[\s@]+v?(\d+\.\d+\.\d+)/gi;

/** The prose's sentences, each with the line it starts on; a sentence may span lines of a paragraph. */
export function proseSentences(markdown: string): ProseLine[] {
  const paragraphs: ProseLine[][] = [[]];
  for (const l of proseLines(markdown)) {
    const previous = paragraphs.at(-1)?.at(-1);
    if (l.text.trim() === '' || (previous !== undefined && previous.line !== l.line - 1)) paragraphs.push([]);
    if (l.text.trim() !== '') paragraphs.at(-1)?.push(l);
  }
  const sentences: ProseLine[] = [];
  for (const paragraph of paragraphs) {
    const text = paragraph.map((l) => l.text).join(' ');
    const starts: number[] = [];
    let start = 0;
    for (const l of paragraph) {
      starts.push(start);
      start += l.text.length + 1;
    }
    let at = 0;
    for (const sentence of text.split(/(?<=[.;:!?])\s+(?=[A-Z(])/)) {
      const from = text.indexOf(sentence, at);
      at = from + sentence.length;
      sentences.push({ line: paragraph[starts.findLastIndex((s) => s <= from)]?.line ?? 0, text: sentence });
    }
  }
  return sentences;
}

/**
 * Prose that says a run had other work beside it on a page whose every block says no cell shared
 * the host ("with other jobs beside it, as its run line says" beside "No cell shared the host").
 */
export function sharedHostClaims(markdown: string): ProseLine[] {
  const blocks = findBlocks(markdown);
  if (blocks.length === 0 || !blocks.every((b) => /No cell shared the host/.test(b.body))) return [];
  return proseLines(markdown).filter(({ text }) =>
    /\b(?:other|others')\s+(?:jobs|work|builds|tests|processes)\b[^.]*\bbeside\b/i.test(text),
  );
}
