/**
 * The result blocks of a bench report's answers (report/answers.ts), as the results site's front
 * page shows them:
 *   findings  which off-loop modes stayed on the loop and where a worker pays, per runtime (`depth=3`)
 *   answers   per scenario, a picture per question (an SVG file each, written beside the page
 *             under `pictures=<folder>`, repository-relative) with its sentences (`depth=3`)
 * Each starts with the run line: when, on what machine, how long the run took.
 */
import { posix } from 'node:path';
import { benchAnswers } from '../report/answers.ts';
import { findingsMarkdown, questionsMarkdown } from '../report/render/answers.ts';
import { forestSvg } from '../report/render/forest-svg.ts';
import type { Report } from '../model/report.ts';

/** A block's body and the files drawn with it (repository-relative path -> content). */
export interface Rendered {
  body: string;
  files: Record<string, string>;
}

export class AnswerBlockError extends Error {}

const hashes = (depth: number) => '#'.repeat(depth);

/** `runLine`: the block's first line (block-kinds.ts's run line of a bench report). */
export function findingsBlock(report: Report, depth: number, runLine: string): string {
  const findings = findingsMarkdown(benchAnswers(report), hashes(depth));
  return [
    runLine,
    '',
    findings ?? 'No finding: no off-loop cell had a loop verdict and no scenario ran a worker against sync with both cells measured.',
  ].join('\n');
}

/**
 * The pictures as files under `folder` (repository-relative), linked from `page` (the Markdown
 * file the block is in, repository-relative), with the sentences under each.
 */
export function answersBlock(report: Report, depth: number, runLine: string, folder: string | undefined, page: string): Rendered {
  if (folder === undefined || folder === '' || folder.startsWith('/') || folder.split('/').includes('..'))
    throw new AnswerBlockError('answers needs pictures=<folder inside the repository> for its SVG files');
  const { questions } = benchAnswers(report);
  const files: Record<string, string> = {};
  for (const q of questions) files[posix.join(folder, `${q.id}.svg`)] = `${forestSvg(q)}\n`;
  const link = (id: string) => posix.relative(posix.dirname(page), posix.join(folder, `${id}.svg`));
  const legend =
    'Each picture: one question, a row per runtime: the ratio (dot) and its 95 % interval (bar) on a log axis, the dashed line at 1 is the same; ● faster or slower (bar dashed: too uncertain to size), ○ no gain, □ could not tell, ◇ no interval.';
  const body =
    questions.length === 0
      ? 'No question to draw: no scenario has two modes measured ok to compare.'
      : [legend, '', questionsMarkdown(questions, hashes(depth), (q) => link(q.id))].join('\n');
  return { body: [runLine, '', body].join('\n'), files };
}
