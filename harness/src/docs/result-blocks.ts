/**
 * The result blocks of README.md and docs/*.md: text between
 *   <!-- results:KIND source=docs/results/x/report.json key=value -->
 *   ...
 *   <!-- /results -->
 * is generated from a committed report, never typed. Pure: finds blocks and splices new bodies in;
 * what a block holds is decided by block-kinds.ts.
 */

export interface ResultBlock {
  kind: string;
  /** key=value pairs of the opening marker (`source` names the report, relative to the repository). */
  params: Record<string, string>;
  /** The opening marker as written, to name the block in messages. */
  marker: string;
  /** 1-based line of the opening marker. */
  line: number;
  /** The text between the markers, without the newlines that border them. */
  body: string;
  /** Offsets of the body in the file: after the opening marker's line, up to the closing marker. */
  start: number;
  end: number;
}

const OPEN = /<!-- results:([a-z][a-z0-9-]*)((?:\s+[a-z][a-z0-9-]*=[^\s>]+)*)\s*-->/g;
const CLOSE = '<!-- /results -->';

export class BlockSyntaxError extends Error {}

function parseParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of text
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return params;
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** Every block in a file, in order; a marker without its closing marker is an error naming its line. */
export function findBlocks(text: string): ResultBlock[] {
  const blocks: ResultBlock[] = [];
  for (const match of text.matchAll(OPEN)) {
    const markerEnd = (match.index ?? 0) + match[0].length;
    const close = text.indexOf(CLOSE, markerEnd);
    const nextOpen = text.indexOf('<!-- results:', markerEnd);
    const line = lineOf(text, match.index ?? 0);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close))
      throw new BlockSyntaxError(`line ${line}: ${match[0]} has no ${CLOSE} before the next block`);
    // The body sits on lines of its own between the markers; it keeps its last newline.
    const start = text[markerEnd] === '\n' ? markerEnd + 1 : markerEnd;
    blocks.push({
      kind: match[1] ?? '',
      params: parseParams(match[2] ?? ''),
      marker: match[0],
      line,
      body: text.slice(start, close).replace(/\n$/, ''),
      start,
      end: close,
    });
  }
  return blocks;
}

/** The file with every block's body replaced by what `render` gives for it. */
export function replaceBlocks(text: string, render: (block: ResultBlock) => string): string {
  let out = '';
  let at = 0;
  for (const block of findBlocks(text)) {
    const head = text.slice(at, block.start);
    out += `${head.endsWith('\n') ? head : `${head}\n`}${render(block).replace(/\n+$/, '')}\n`;
    at = block.end;
  }
  return out + text.slice(at);
}
