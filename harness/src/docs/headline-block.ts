/**
 * The `headline` result block: what a bench run found, in the words a README opens with. The run's
 * conditions once; then one bullet per scenario and off-loop mode (at most five, each at most
 * HEADLINE_WORDS words), its requests/s over sync on each runtime in the vocabulary of
 * present/verdict-words.ts, what a bystander waits and what a request costs; a picture of
 * those ratios with their intervals (`picture=<svg path>`); and "In words", a paragraph built from
 * the same verdicts, so the prose cannot say what the figures do not. Pure: from the report only.
 */
import { posix } from 'node:path';
import type { AnswerRow, Question } from '../report/answers.ts';
import { carried, conditionsLine, HEADLINE_BULLETS, headlineBullet, syncQuestions } from '../report/headline-bullets.ts';
import { forestSvg } from '../report/render/forest-svg.ts';
import { cpuWords, verdictWords } from '../present/verdict-words.ts';

import type { Report } from '../model/report.ts';

/** Which way a question's runtimes went, read only from their verdicts. */
function direction(rows: readonly AnswerRow[]): 'faster' | 'slower' | 'same' | 'unknown' {
  const words = carried(rows).map((r) => verdictWords(r));
  if (words.length === 0 || words.length < rows.length) return 'unknown';
  if (words.every((w) => w.word === 'faster')) return 'faster';
  if (words.every((w) => w.word === 'slower')) return 'slower';
  if (words.every((w) => w.kind === 'no-gain')) return 'same';
  return 'unknown';
}

const names = (items: readonly Question[]) => items.map((q) => `${q.scenario} ${q.words.over}`).join(', ');
const ratioRange = (items: readonly Question[]) => {
  const ratios = items.flatMap((q) => q.rows.map((r) => r.ratio));
  return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}x`;
};

/**
 * "In words": what the verdicts say together, each sentence there only when every runtime's
 * verdict backs it: work freed from a waiting loop (no CPU ceiling), computation moved off it
 * (within the ceiling), modes no runtime could tell from sync, and what a bystander gained.
 */
export function inWords(report: Report): string {
  const pairs = syncQuestions(report);
  const ceilingOf = (q: Question) => q.rows.find((r) => r.modeCosts?.ceilingCpus !== undefined)?.modeCosts?.ceilingCpus;
  const faster = pairs.filter((p) => direction(p.question.rows) === 'faster').map((p) => p.question);
  // No ceiling where the costs were measured: sync's loop was not computing (report/cpu-costs.ts).
  const waits = faster.filter((q) => ceilingOf(q) === undefined && q.rows.some((r) => r.modeCosts?.cpuRatio !== undefined));
  const work = faster.filter((q) => !waits.includes(q));
  const same = pairs.filter((p) => direction(p.question.rows) === 'same').map((p) => p.question);
  const slower = pairs.filter((p) => direction(p.question.rows) === 'slower').map((p) => p.question);
  const unknown = pairs.filter((p) => direction(p.question.rows) === 'unknown').map((p) => p.question);
  const sentences: string[] = [];
  if (waits.length > 0)
    sentences.push(
      `Where sync's loop sat waiting rather than computing (${names(waits)}), the off-loop mode was faster on every runtime, ${ratioRange(waits)}: a blocked loop makes every caller queue.`,
    );
  if (work.length > 0) {
    const cpus = ceilingOf(work[0] as Question) ?? 0;
    const within = work.every((q) => q.rows.every((r) => r.ratio <= cpus * 1.1));
    const cpu = [
      ...new Set(
        work.flatMap((q) => carried(q.rows).flatMap((r) => (r.modeCosts?.cpuRatio === undefined ? [] : [cpuWords(r.modeCosts.cpuRatio)]))),
      ),
    ];
    sentences.push(
      `Moving computation off the loop (${names(work)}) was faster on every runtime${within ? `, within the ~${cpus}x that ${cpus} CPUs allow` : ''}${cpu.length === 1 && cpu[0] === 'the same CPU' ? ', at the same CPU a request: it frees the loop, it adds no CPU' : ''}.`,
    );
  }
  if (same.length > 0) sentences.push(`${names(same)}: no gain on any runtime.`);
  if (slower.length > 0) sentences.push(`${names(slower)}: slower than sync on every runtime.`);
  const unclear = unknown.filter((q) => q.rows.every((r) => verdictWords(r).word === 'could not tell'));
  const mixed = unknown.filter((q) => !unclear.includes(q));
  if (unclear.length > 0) sentences.push(`${names(unclear)}: no runtime could tell it from sync, either way.`);
  if (mixed.length > 0)
    sentences.push(`For ${names(mixed)} the runtimes did not agree, so no one answer holds; the bullets above give each runtime's.`);
  const freed = pairs.filter((p) => (p.bystander?.rows.length ?? 0) > 0 && carried(p.bystander?.rows ?? []).every((r) => r.ratio < 1));
  if (freed.length > 0)
    sentences.push(
      `Wherever the work left the loop (${names(freed.map((p) => p.question))}), one more caller waited less than beside sync.`,
    );
  const held = pairs.filter((p) => (p.bystander?.rows.length ?? 0) > 0 && carried(p.bystander?.rows ?? []).every((r) => r.ratio > 1));
  if (held.length > 0) sentences.push(`Beside ${names(held.map((p) => p.question))}, one more caller waited longer than beside sync.`);
  const text = sentences.join(' ');
  return `In words: ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

/** The picture: every ratio over sync, a row per scenario, mode and runtime, with its interval. */
export function headlinePicture(report: Report): string {
  const rows = syncQuestions(report).flatMap(({ question }) =>
    question.rows.map((r) => ({ ...r, lane: `${question.scenario} ${question.words.over}: ${r.lane}`, sentence: verdictWords(r).text })),
  );
  const question: Question = {
    id: 'headline',
    scenario: 'headline',
    title: "Requests/s of the off-loop mode over sync's, each runtime, with 95 % intervals (log scale)",
    words: { over: 'off-loop', base: 'sync', measure: 'throughput' },
    rows,
  };
  const cpus = [...new Set(rows.flatMap((r) => (r.modeCosts?.ceilingCpus === undefined ? [] : [r.modeCosts.ceilingCpus])))];
  const ceiling =
    cpus.length === 1 && cpus[0] !== undefined
      ? { at: cpus[0], label: `~${cpus[0]}x: the ceiling for CPU work on ${cpus[0]} CPUs` }
      : undefined;
  return `${forestSvg(question, { labelWidth: 150, ...(ceiling === undefined ? {} : { ceiling }) })}\n`;
}

export interface HeadlineRendered {
  body: string;
  files: Record<string, string>;
}

/** `picture`: where the SVG goes (repository-relative), linked from `page`; none drawn without it. */
export function headlineBlock(report: Report, picture?: string, page = 'README.md'): HeadlineRendered {
  const pairs = syncQuestions(report).slice(0, HEADLINE_BULLETS);
  if (pairs.length === 0) return { body: 'No scenario compared an off-loop mode with sync.', files: {} };
  const bullets = pairs.map(({ question, bystander }) => `- ${headlineBullet(question, bystander)}`);
  const files = picture === undefined ? {} : { [picture]: headlinePicture(report) };
  const image =
    picture === undefined
      ? []
      : [
          `![Requests/s of async and of a worker pool over sync, per scenario and runtime, each with its 95 % interval on a log scale](${posix.relative(posix.dirname(page), picture)})`,
          '',
        ];
  const body = [
    conditionsLine(
      report,
      pairs.map((p) => p.question),
    ),
    '',
    ...bullets,
    '',
    ...image,
    inWords(report),
  ].join('\n');
  return { body, files };
}
