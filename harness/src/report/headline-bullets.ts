/**
 * A bench report's answers as short bullets, one per scenario and off-loop mode against sync: the
 * runtimes' verdicts grouped by what they say (text/verdict-words.ts), then what a bystander waits
 * and what a request costs while the bullet stays short; and the conditions they hold under, said
 * once. The README's headline, the console and report.md all open with these. Pure.
 */
import { type AnswerRow, answerQuestions, type Question } from './answers.ts';
import { formatDate } from '../present/formats.ts';
import { bystanderWords, cpuWords, timesText, type VerdictWords, verdictWords } from '../present/verdict-words.ts';
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
  // Runtimes that could not tell for one reason are named together, the reason once.
  const noData = group((w) => w.kind === 'no-data');
  for (const reason of [...new Set(noData.map((s) => s.words.detail))]) {
    const mine = noData.filter((s) => s.words.detail === reason);
    clauses.push(`could not tell on ${mine.map((s) => s.row.lane).join(', ')}: ${reason}`);
  }
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
export function syncQuestions(report: Report): { question: Question; bystander: Question | undefined }[] {
  const questions = answerQuestions(report);
  return questions
    .filter((q) => q.words.measure === 'throughput' && q.words.base === 'sync')
    .map((question) => ({ question, bystander: questions.find((b) => b.id === `${question.id}-bystander`) }));
}

/** The bullets of a set of questions (a run's answers): one per throughput question against sync. */
export function bulletsOf(questions: readonly Question[]): string[] {
  return questions
    .filter((q) => q.words.measure === 'throughput' && q.words.base === 'sync')
    .map((q) =>
      headlineBullet(
        q,
        questions.find((b) => b.id === `${q.id}-bystander`),
      ),
    );
}

/** Rows whose cells can carry a figure beside the verdict (not shared, invalid or failed). */
export const carried = (rows: readonly AnswerRow[]) => rows.filter((r) => r.doubt === undefined);

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

/** What a bullet's figures are, said once above the bullets. */
export const FIGURES_READ =
  "Each figure is requests/s over sync, paired round by round, with its 95 % interval; a bystander is one more caller's p99.";

/** The conditions every bullet holds under, said once: when, on what, how the ratios were taken, the ceiling. */
export function conditionsLine(report: Report, questions: readonly Question[]): string {
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
  return `The run of ${formatDate(report.createdAt)} on ${env.cpu.count} vCPUs (${env.cpu.model}): ${runtimes}; ${report.parameters.connections} connections. ${FIGURES_READ}${ceiling}`;
}
