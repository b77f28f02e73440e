/**
 * A bench report's answers (report/answers.ts) in Markdown and HTML: the findings as lists, and
 * per scenario a picture per question (render/forest-svg.ts) with its sentences. Shared by the
 * bench report, the results site's front page and the docs' result blocks.
 */
import type { Answers, Question } from '../answers.ts';
import { FINDINGS_LEGEND } from '../text/findings.ts';
import { plainLegend, verdictKind } from '../../present/verdict-words.ts';
import { bulletsOf } from '../headline-bullets.ts';
import { escapeHtml } from '../../present/html-escape.ts';
import { forestSvg } from './forest-svg.ts';

export const FINDING_TITLES = {
  loop: 'Which off-loop mode stays on the loop',
  worker: 'Where a worker pays',
} as const;

/** What a finding's figures are; for the worker, only the verdicts its lines use. */
function legendOf(key: 'loop' | 'worker', answers: Pick<Answers, 'questions'>): string {
  if (key === 'loop') return FINDINGS_LEGEND.loop;
  const kinds = answers.questions.filter((q) => q.id === `${q.scenario}-worker`).flatMap((q) => q.rows.map((r) => verdictKind(r.verdict)));
  return `${FINDINGS_LEGEND.worker} ${plainLegend(kinds).join('; ')}.`;
}

/** The findings as Markdown under `hashes` headings ("###"); undefined when the report has none. */
export function findingsMarkdown(
  answers: Pick<Answers, 'loop' | 'worker' | 'conditions' | 'questions'>,
  hashes: string,
): string | undefined {
  const parts = (['loop', 'worker'] as const).flatMap((key) => {
    const lines = answers[key];
    if (lines.length === 0) return [];
    return [`${hashes} ${FINDING_TITLES[key]}`, lines.map((line) => `- ${line}`).join('\n'), legendOf(key, answers)];
  });
  if (parts.length === 0) return undefined;
  return [...(answers.conditions === undefined ? [] : [answers.conditions]), ...parts].join('\n\n');
}

/** Questions grouped by scenario, in order. */
export function byScenario(questions: readonly Question[]): [string, Question[]][] {
  const groups = new Map<string, Question[]>();
  for (const q of questions) groups.set(q.scenario, [...(groups.get(q.scenario) ?? []), q]);
  return [...groups.entries()];
}

/**
 * Per scenario (a `hashes` heading), each question's picture as an image (`image(question)`: its
 * path) and its sentences, so the page reads without the picture too.
 */
export function questionsMarkdown(questions: readonly Question[], hashes: string, image: (q: Question) => string): string {
  return byScenario(questions)
    .map(([scenario, mine]) => {
      const blocks = mine.map(
        (q) =>
          `![${q.title}](${image(q)})\n\n${q.rows.map((r) => `- ${r.sentence}${r.costs === undefined ? '' : `; ${r.costs}`}`).join('\n')}`,
      );
      return [`${hashes} ${scenario}`, ...blocks].join('\n\n');
    })
    .join('\n\n');
}

/** The findings and every question's picture, inline, for an HTML page. */
export function answersHtml(answers: Answers): string {
  const findings = (['loop', 'worker'] as const).flatMap((key) => {
    const lines = answers[key];
    if (lines.length === 0) return [];
    return [
      `<div class="finding" data-finding="${key}"><h4>${escapeHtml(FINDING_TITLES[key])}</h4><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul><p class="muted">${escapeHtml(legendOf(key, answers))}</p></div>`,
    ];
  });
  const pictures = byScenario(answers.questions).map(
    ([scenario, mine]) =>
      `<div class="answers-scenario" data-scenario="${escapeHtml(scenario)}"><h4>${escapeHtml(scenario)}</h4>${mine.map((q) => `<figure class="forest" id="answer-${escapeHtml(q.id)}">${forestSvg(q)}</figure>`).join('')}</div>`,
  );
  const conditions = answers.conditions === undefined ? [] : [`<p class="muted" data-conditions>${escapeHtml(answers.conditions)}</p>`];
  // The verdicts first, in the words of the README's headline; "**hash**" is the scenario in bold.
  const bullets = bulletsOf(answers.questions).map((b) => `<li>${escapeHtml(b).replace(/\*\*([^*]+)\*\*/, '<b>$1</b>')}</li>`);
  const headline = bullets.length === 0 ? [] : [`<ul class="headline">${bullets.join('')}</ul>`];
  return [...headline, ...conditions, ...findings, ...pictures].join('\n');
}
