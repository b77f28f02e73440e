/**
 * The `headline` result block: what a bench run found, a few lines a README can open with. Per
 * scenario and off-loop mode, the requests/s ratio over sync on each runtime read as
 * report/ratio-verdict.ts reads it (a figure and its interval, "no difference", "inconclusive"),
 * the ceiling of that ratio on the machine and the CPU a request costs against sync where the
 * cells measured them, and what one more caller waits against sync. Pure: from the report only.
 */
import { answerQuestions, type AnswerRow, type Question } from '../report/answers.ts';
import { formatDate, formatMs, formatRatio } from '../report/text/formats.ts';
import { ratioWithInterval, verdictFigures } from '../report/text/findings.ts';
import type { Report } from '../model/report.ts';

/** "1.74x (1.49–2.03x)", "no difference (0.98x, 0.95–1.01x)", "inconclusive: why (2.20x, 1.40–3.45x)": worded as the findings word them. */
function figure(row: AnswerRow): string {
  const { words, figures } = verdictFigures(row);
  return words === undefined ? ratioWithInterval(row.ratio, row.ci) : `${words} (${figures})`;
}

const range = (values: readonly number[], format: (v: number) => string): string => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return format(low) === format(high) ? format(low) : `${format(low)}–${format(high)}`;
};

/** The clauses after a question's figures: one sync request, the ceiling, CPU a request, the bystander. */
function conditions(rows: readonly AnswerRow[], bystander: Question | undefined): string {
  const parts: string[] = [];
  const requestMs = rows.flatMap((r) => (r.syncRequestMs === undefined ? [] : [r.syncRequestMs]));
  if (requestMs.length > 0) parts.push(`one sync request takes ${range(requestMs, formatMs)} ms`);
  const ceilings = [...new Set(rows.flatMap((r) => (r.modeCosts?.ceilingCpus === undefined ? [] : [r.modeCosts.ceilingCpus])))];
  if (ceilings.length === 1) parts.push(`at most ~${ceilings[0]}x with the ${ceilings[0]} CPUs the server had`);
  const cpu = rows.flatMap((r) => (r.modeCosts?.cpuRatio === undefined ? [] : [`${r.lane} ${formatRatio(r.modeCosts.cpuRatio)}`]));
  if (cpu.length > 0) parts.push(`a request costs ${cpu.join(', ')} the CPU of a sync one`);
  const waits = bystander?.rows.map((r) => `${r.lane} ${formatRatio(r.ratio)}`) ?? [];
  if (waits.length > 0) parts.push(`one more caller's p99 is ${waits.join(', ')} sync's`);
  return parts.length === 0 ? '' : `: ${parts.join('; ')}`;
}

export function headlineBlock(report: Report): string {
  const questions = answerQuestions(report);
  const lines = questions
    .filter((q) => q.words.measure === 'throughput' && q.words.base === 'sync')
    .map((q) => {
      const bystander = questions.find((b) => b.id === `${q.id}-bystander`);
      const figures = q.rows.map((r) => `${r.lane} ${figure(r)}`).join(', ');
      return `- **${q.scenario}**, ${q.words.over} over sync, requests/s: ${figures}${conditions(q.rows, bystander)}.`;
    });
  const env = report.environment;
  const runtimes = report.runtimes
    .filter((r) => r.status === 'ok')
    .map((r) => `${r.label ?? r.name} ${r.version ?? ''}`.trim())
    .join(', ');
  const head = `From the run of ${formatDate(report.createdAt)} (${env.cpu.count} vCPUs, ${env.cpu.model}; ${runtimes}; ${report.parameters.connections} connections), each ratio the geometric mean of runs paired round by round with its 95 % interval:`;
  return lines.length === 0 ? `${head}\n\nNo scenario compared an off-loop mode with sync.` : [head, '', ...lines].join('\n');
}
