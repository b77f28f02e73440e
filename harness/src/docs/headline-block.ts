/**
 * The `headline` result block: what a bench run found, in the words a README opens with. The run's
 * conditions once; then one bullet per scenario and off-loop mode (at most five, each at most
 * HEADLINE_WORDS words), its requests/s over sync on each runtime in the vocabulary of
 * report/text/verdict-words.ts, what a bystander waits and what a request costs; a picture of
 * those ratios with their intervals (`picture=<svg path>`); and "In words", a paragraph built from
 * the same verdicts, so the prose cannot say what the figures do not. Pure: from the report only.
 */
import { posix } from 'node:path';
import { type AnswerRow, answerQuestions, type Question } from '../report/answers.ts';
import { forestSvg } from '../report/render/forest-svg.ts';
import { formatDate } from '../report/text/formats.ts';
import { bystanderWords, cpuWords, timesText, verdictWords, type VerdictWords } from '../report/text/verdict-words.ts';
import type { Report } from '../model/report.ts';

/** A bullet's words at most: a line a reader takes in at a glance. */
export const HEADLINE_WORDS = 30;
/** Bullets at most: the questions a README can answer before its reader scrolls. */
export const HEADLINE_BULLETS = 5;

export const wordCount = (text: string): number => text.split(/\s+/).filter((w) => w !== '').length;

/** The ratio's interval at two decimals without the "x": "1.65–2.01". */
const bare = (ci: readonly [number, number]) => `${ci[0].toFixed(2)}–${ci[1].toFixed(2)}`;

/** The runtimes' verdicts, grouped by what they say: "faster on node 1.82x (1.65–2.01), bun 1.88x (1.79–1.98)". */
function verdictClauses(rows: readonly AnswerRow[]): string[] {
  const said = rows.map((row) => ({ row, words: verdictWords(row) }));
  const group = (keep: (w: VerdictWords) => boolean) => said.filter((s) => keep(s.words));
  const lanes = (
    items: readonly { row: AnswerRow; words: VerdictWords }[],
    figure: (s: { row: AnswerRow; words: VerdictWords }) => string,
  ) => items.map((s) => `${s.row.lane} ${figure(s)}`).join(', ');
  const clauses: string[] = [];
  for (const word of ['faster', 'slower'] as const) {
    const sized = group((w) => w.kind === 'sized' && w.word === word);
    if (sized.length > 0)
      clauses.push(`${word} on ${lanes(sized, (s) => `${s.row.ratio.toFixed(2)}x (${bare(s.row.ci ?? [s.row.ratio, s.row.ratio])})`)}`);
    const unsized = group((w) => w.kind === 'unsized' && w.word === word);
    if (unsized.length > 0)
      clauses.push(
        `${word} on ${lanes(unsized, (s) => `(${s.words.detail.replace(' (too uncertain to size)', '')})`)}, too uncertain to size`,
      );
  }
  const same = group((w) => w.kind === 'no-gain');
  if (same.length > 0) clauses.push(`no gain on ${lanes(same, (s) => `(${s.words.detail})`)}`);
  const unclear = group((w) => w.kind === 'unclear');
  if (unclear.length > 0) clauses.push(`could not tell on ${lanes(unclear, (s) => `(${s.words.detail})`)}`);
  const noData = group((w) => w.kind === 'no-data');
  if (noData.length > 0) clauses.push(`could not tell on ${lanes(noData, (s) => `(${s.words.detail})`)}`);
  const bare1 = group((w) => w.kind === 'no-interval');
  if (bare1.length > 0) clauses.push(`too few runs for an interval on ${lanes(bare1, (s) => s.words.word)}`);
  return clauses;
}

/** "a bystander waits 36–170x less": one more caller's p99 against sync's, over the runtimes whose cells carry it. */
function bystanderClause(rows: readonly AnswerRow[]): string | undefined {
  if (rows.length === 0) return undefined;
  const words = rows.map((r) => bystanderWords(r.ratio));
  const less = rows.every((r) => r.ratio < 1) && words.every((w) => w.endsWith(' less'));
  const longer = rows.every((r) => r.ratio > 1) && words.every((w) => w.endsWith(' longer'));
  if (less || longer) {
    const factors = rows.map((r) => (less ? 1 / r.ratio : r.ratio));
    const low = timesText(Math.min(...factors)).slice(0, -1);
    const high = timesText(Math.max(...factors));
    return `a bystander waits ${low === high.slice(0, -1) ? high : `${low}–${high}`} ${less ? 'less' : 'longer'}`;
  }
  return `a bystander ${rows.map((r, i) => `${words[i]} on ${r.lane}`).join(', ')}`;
}

/** "each request costs the same CPU", "each request costs 9–14 % more CPU". */
function cpuClause(rows: readonly AnswerRow[]): string | undefined {
  const ratios = rows.flatMap((r) => (r.modeCosts?.cpuRatio === undefined ? [] : [r.modeCosts.cpuRatio]));
  if (ratios.length === 0) return undefined;
  const words = [...new Set(ratios.map(cpuWords))];
  if (words.length === 1) return `each request costs ${words[0]}`;
  const more = ratios.every((r) => cpuWords(r).endsWith('more CPU'));
  const less = ratios.every((r) => cpuWords(r).endsWith('less CPU'));
  if (more || less) {
    const shares = ratios.map((r) => Math.round(Math.abs(r - 1) * 100));
    return `each request costs ${Math.min(...shares)}–${Math.max(...shares)} % ${more ? 'more' : 'less'} CPU`;
  }
  return `each request costs ${rows.flatMap((r) => (r.modeCosts?.cpuRatio === undefined ? [] : [`${cpuWords(r.modeCosts.cpuRatio)} on ${r.lane}`])).join(', ')}`;
}

/** The throughput questions against sync, in the report's order, and their bystander questions. */
function syncQuestions(report: Report): { question: Question; bystander: Question | undefined }[] {
  const questions = answerQuestions(report);
  return questions
    .filter((q) => q.words.measure === 'throughput' && q.words.base === 'sync')
    .map((question) => ({ question, bystander: questions.find((b) => b.id === `${question.id}-bystander`) }));
}

/** Rows whose cells can carry a figure beside the verdict (not shared, invalid or failed). */
const carried = (rows: readonly AnswerRow[]) => rows.filter((r) => r.doubt === undefined);

/** One bullet: the verdicts first, then the bystander and the CPU while the bullet stays within HEADLINE_WORDS. */
export function headlineBullet(question: Question, bystander: Question | undefined): string {
  const lanes = new Set(carried(question.rows).map((r) => r.lane));
  const head = `**${question.scenario}**, ${question.words.over} vs sync: ${verdictClauses(question.rows).join('; ')}`;
  const extras = [
    bystanderClause(carried(bystander?.rows ?? []).filter((r) => lanes.has(r.lane))),
    cpuClause(carried(question.rows)),
  ].filter((c): c is string => c !== undefined);
  // The verdicts stay whole; what follows them goes from the end until the bullet fits.
  for (let keep = extras.length; keep >= 0; keep--) {
    const bullet = `${[head, ...extras.slice(0, keep)].join('; ')}.`;
    if (wordCount(bullet) <= HEADLINE_WORDS || keep === 0) return bullet;
  }
  return `${head}.`;
}

/** The conditions every bullet holds under, said once: when, on what, how the ratios were taken, the ceiling. */
function conditionsLine(report: Report, questions: readonly Question[]): string {
  const env = report.environment;
  const runtimes = report.runtimes
    .filter((r) => r.status === 'ok')
    .map((r) => `${r.label ?? r.name} ${r.version ?? ''}`.trim())
    .join(', ');
  const ceilings = [
    ...new Set(questions.flatMap((q) => q.rows.flatMap((r) => (r.modeCosts?.ceilingCpus === undefined ? [] : [r.modeCosts.ceilingCpus])))),
  ];
  const ceiling =
    ceilings.length === 1
      ? ` With ${ceilings[0]} CPUs, moving computation off the loop can serve at most about ${ceilings[0]}x what sync does.`
      : '';
  return `The run of ${formatDate(report.createdAt)} on ${env.cpu.count} vCPUs (${env.cpu.model}): ${runtimes}; ${report.parameters.connections} connections. Each figure is requests/s over sync, paired round by round, with its 95 % interval; a bystander is one more caller's p99.${ceiling}`;
}

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
  return `In words: ${sentences.join(' ')}`;
}

/** The picture: every ratio over sync, a row per scenario, mode and runtime, with its interval. */
export function headlinePicture(report: Report): string {
  const rows = syncQuestions(report).flatMap(({ question }) =>
    question.rows.map((r) => ({ ...r, lane: `${question.scenario} ${question.words.over}: ${r.lane}`, sentence: verdictWords(r).text })),
  );
  const question: Question = {
    id: 'headline',
    scenario: 'headline',
    title: 'Requests/s over sync, each runtime, with 95 % intervals (log scale)',
    words: { over: 'off-loop', base: 'sync', measure: 'throughput' },
    rows,
  };
  return `${forestSvg(question, { labelWidth: 150 })}\n`;
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
