/**
 * The results site's pages: the front page (every headline question, one line each, with its
 * figure, how sure, and a link to the run and section it comes from) in Markdown and HTML, and
 * the HTML site with one tab per kind (the newest run's own page, then the older runs listed).
 * Pure: paths are made relative to the site's folder, so the site opens from file://.
 */
import { plainLegend } from '../present/verdict-words.ts';
import { relative, sep } from 'node:path';
import { markdownTable } from 'markdown-table';
import { escapeCell, formatDate } from '../present/formats.ts';
import { answersHtml, findingsMarkdown, questionsMarkdown } from './render/answers.ts';
import { forestSvg } from './render/forest-svg.ts';
import { escapeHtml } from '../present/html-escape.ts';
import { REPORT_CSS } from '../present/html-style.ts';
import { newestOfKind, runsByKind, type SiteInput, type SiteKind, type SiteRun } from './site-model.ts';
import type { Headline } from '../model/section.ts';

/** A link from the site's folder to a file of a run, with `/` on every system. */
export function linkFrom(siteDir: string, path: string, anchor?: string): string {
  const rel = relative(siteDir, path).split(sep).join('/');
  return anchor === undefined || anchor === '' ? rel : `${rel}#${anchor}`;
}

const runName = (run: SiteRun) => run.dir.split(sep).pop() ?? run.dir;
const commitOf = (run: SiteRun) =>
  run.commit === undefined ? 'unknown' : `${run.commit.slice(0, 7)}${run.dirty === true ? ' (dirty)' : ''}`;
const source = (run: SiteRun) => `run of ${formatDate(run.createdAt)}`;

interface Row {
  kind: SiteKind;
  run: SiteRun;
  headline: Headline;
}

function frontRows(input: SiteInput, kinds: readonly SiteKind[]): Row[] {
  const newest = newestOfKind(input.runs, kinds);
  return kinds.flatMap((kind) => {
    const run = newest.find((r) => r.kind === kind.kind);
    return run === undefined ? [] : run.section.headlines.map((headline) => ({ kind, run, headline }));
  });
}

/** The newest run of each kind that draws answers (bench runs), with them. */
/**
 * Each question answered from the newest run that measured it, with that run named beside it: a
 * narrow run (one scenario, a user's module) answers what it measured without hiding every other
 * answer. The findings come from the newest run that has them; an older run adds only the
 * questions no newer run of its kind asked.
 */
function answered(input: SiteInput, kinds: readonly SiteKind[]) {
  return [...runsByKind(input.runs, kinds).values()].flatMap((runs) => {
    const asked = new Set<string>();
    let findings = false;
    return runs.flatMap((run) => {
      const answers = run.section.answers?.();
      if (answers === undefined) return [];
      const questions = answers.questions.filter((q) => !asked.has(q.id));
      for (const q of questions) asked.add(q.id);
      const ownFindings = !findings && (answers.loop.length > 0 || answers.worker.length > 0);
      if (ownFindings) findings = true;
      if (questions.length === 0 && !ownFindings) return [];
      return [{ run, answers: { questions, loop: ownFindings ? answers.loop : [], worker: ownFindings ? answers.worker : [] } }];
    });
  });
}

/** Where the front page's pictures live, from the site's folder: one SVG per question of each answered run. */
export const pictureFile = (kind: string, id: string) => `answers/${kind}-${id}.svg`;

/** The front page's pictures as files beside index.md (the Markdown links them; the HTML inlines them). */
export function frontPictures(input: SiteInput, kinds: readonly SiteKind[]): { file: string; svg: string }[] {
  return answered(input, kinds).flatMap(({ run, answers }) =>
    answers.questions.map((q) => ({ file: pictureFile(run.kind, q.id), svg: `${forestSvg(q)}\n` })),
  );
}

/** The answers as Markdown: findings, then a picture and sentences per question. */
function answersMarkdown(input: SiteInput, kinds: readonly SiteKind[]): string[] {
  return answered(input, kinds).flatMap(({ run, answers }) => {
    const findings = findingsMarkdown(answers, '###');
    return [
      '',
      `## Answers: ${kinds.find((k) => k.kind === run.kind)?.title ?? run.kind}`,
      '',
      `From ${source(run)} (${run.status}), commit ${commitOf(run)}, ${run.machine}.`,
      ...(findings === undefined ? [] : ['', findings]),
      '',
      questionsMarkdown(answers.questions, '###', (q) => pictureFile(run.kind, q.id)),
    ];
  });
}

/**
 * The front page in Markdown (for pull requests and the docs): the answers, then one table per
 * kind. Its pictures are the files frontPictures gives, linked from the site's folder.
 */
export function frontPageMarkdown(input: SiteInput, kinds: readonly SiteKind[], siteDir: string): string {
  const rows = frontRows(input, kinds);
  const out = [
    '# Results',
    '',
    'Each line: the question, the answer with its figure, how sure (95 % interval or test), and the run and section it comes from. Newest run of each kind.',
    ...answersMarkdown(input, kinds),
  ];
  for (const kind of kinds) {
    const mine = rows.filter((r) => r.kind.kind === kind.kind);
    const run = mine[0]?.run;
    if (run === undefined) continue;
    const table = mine.map(({ headline: h }) =>
      [h.question, h.answer, h.confidence ?? '—', `[${escapeCell(source(run))}](${linkFrom(siteDir, run.page, h.anchor)})`].map((c, i) =>
        i === 3 ? c : escapeCell(c),
      ),
    );
    out.push(
      '',
      `## ${kind.title}`,
      '',
      `From ${source(run)} (${run.status}), commit ${commitOf(run)}, ${run.machine}.`,
      '',
      markdownTable([['question', 'answer', 'how sure', 'from'], ...table]),
    );
  }
  if (rows.length === 0)
    out.push('', 'No run found: run `pnpm bench:all` (or bench:curve, bench:seeds, bench:browser), then `pnpm bench:report`.');
  if (input.skipped.length > 0) out.push('', '## Skipped', '', ...input.skipped.map((s) => `- ${linkFrom(siteDir, s.path)}: ${s.reason}`));
  return `${out.join('\n')}\n`;
}

const SITE_CSS = `
nav.tabs { display: flex; flex-wrap: wrap; gap: 4px; border-bottom: 1px solid var(--border); margin: 16px 0; }
nav.tabs a { padding: 6px 12px; border: 1px solid var(--border); border-bottom: none; border-radius: 6px 6px 0 0; text-decoration: none; background: var(--panel); }
nav.tabs a[aria-selected="true"] { background: var(--bg); font-weight: 600; }
.site-tab[hidden] { display: none; }
iframe.run-page { width: 100%; height: 85vh; border: 1px solid var(--border); border-radius: 6px; background: #fff; }
table.headlines td:first-child { max-width: 28em; }
table.headlines tr.group th { text-align: left; padding-top: 18px; font-size: 1.05rem; }
table.headlines tr.group .muted { font-weight: normal; font-size: 0.85rem; }
figure.forest { margin: 8px 0 14px; overflow-x: auto; }
figure.forest svg { display: block; max-width: none; }
.finding ul { margin: 4px 0; }
`;

/** Tabs without a framework: the hash names the tab, so links to a tab and the back button work. */
const TAB_SCRIPT = `
(function () {
  var tabs = Array.prototype.slice.call(document.querySelectorAll('.site-tab'));
  var links = Array.prototype.slice.call(document.querySelectorAll('nav.tabs a'));
  function show() {
    var id = (location.hash || '#front').slice(1);
    if (!tabs.some(function (t) { return t.id === id; })) id = 'front';
    tabs.forEach(function (t) { t.hidden = t.id !== id; });
    links.forEach(function (a) { a.setAttribute('aria-selected', String(a.getAttribute('href') === '#' + id)); });
  }
  window.addEventListener('hashchange', show);
  show();
})();
`;

function headlineTable(rows: readonly Row[], siteDir: string): string {
  const body = rows.flatMap(({ kind, run, headline: h }, i) => {
    const conf = h.confidence ?? '—';
    // One heading row per kind, linking to its tab.
    const group =
      rows[i - 1]?.kind === kind
        ? []
        : [
            `<tr class="group"><th colspan="4"><a href="#${escapeHtml(kind.kind)}">${escapeHtml(kind.title)}</a> <span class="muted">${escapeHtml(`${run.machine}, commit ${commitOf(run)}`)}</span></th></tr>`,
          ];
    return [
      ...group,
      `<tr data-kind="${escapeHtml(kind.kind)}" data-figure="${escapeHtml(h.figure)}"><td>${escapeHtml(h.question)}</td><td>${escapeHtml(h.answer)}</td><td>${escapeHtml(conf)}</td><td><a class="source" href="${escapeHtml(linkFrom(siteDir, run.page, h.anchor))}">${escapeHtml(source(run))}</a></td></tr>`,
    ];
  });
  return `<div class="table-wrap"><table class="headlines"><thead><tr><th>question</th><th>answer</th><th>how sure</th><th>from</th></tr></thead><tbody>${body.join('\n')}</tbody></table></div>`;
}

function runsTable(runs: readonly SiteRun[], siteDir: string): string {
  const rows = runs.map(
    (r, i) =>
      `<tr><td>${i === 0 ? 'shown above' : ''}</td><td>${escapeHtml(formatDate(r.createdAt))}</td><td>${escapeHtml(r.status)}</td><td><code>${escapeHtml(commitOf(r))}</code></td><td>${escapeHtml(r.machine)}</td><td><a href="${escapeHtml(linkFrom(siteDir, r.page))}">${escapeHtml(runName(r))}</a></td></tr>`,
  );
  return `<h3>Runs of this kind, newest first</h3><div class="table-wrap"><table class="runs"><thead><tr><th></th><th>date</th><th>status</th><th>commit</th><th>machine</th><th>run</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></div>`;
}

function kindTab(kind: SiteKind, runs: readonly SiteRun[], siteDir: string): string {
  const newest = runs[0];
  if (newest === undefined) return '';
  // The run's own page, whole, in a frame of its own: its charts and scripts work unchanged
  // (the existing renderers, not a second copy of them) and the page stays one file.
  return [
    `<section class="site-tab" id="${escapeHtml(kind.kind)}" data-kind="${escapeHtml(kind.kind)}">`,
    `<h2>${escapeHtml(kind.title)}</h2>`,
    `<p class="muted">Newest run: ${escapeHtml(source(newest))} (${escapeHtml(newest.status)}), commit <code>${escapeHtml(commitOf(newest))}</code>, ${escapeHtml(newest.machine)}. <a href="${escapeHtml(linkFrom(siteDir, newest.page))}">Open it on its own</a>.</p>`,
    `<iframe class="run-page" title="${escapeHtml(`${kind.title}: ${source(newest)}`)}" srcdoc="${escapeHtml(newest.section.html())}"></iframe>`,
    runsTable(runs, siteDir),
    '</section>',
  ].join('\n');
}

export function siteHtml(input: SiteInput, kinds: readonly SiteKind[], siteDir: string, builtAt: string): string {
  const grouped = runsByKind(input.runs, kinds);
  const present = kinds.filter((k) => grouped.has(k.kind));
  const nav = [`<a href="#front">Answers</a>`, ...present.map((k) => `<a href="#${escapeHtml(k.kind)}">${escapeHtml(k.title)}</a>`)].join(
    '',
  );
  const rows = frontRows(input, kinds);
  const skipped =
    input.skipped.length === 0
      ? ''
      : `<h3>Skipped</h3><ul class="skipped">${input.skipped.map((s) => `<li><code>${escapeHtml(linkFrom(siteDir, s.path))}</code>: ${escapeHtml(s.reason)}</li>`).join('')}</ul>`;
  const pictures = answered(input, kinds).map(
    ({ run, answers }) =>
      `<div class="answers" data-kind="${escapeHtml(run.kind)}"><h3>${escapeHtml(kinds.find((k) => k.kind === run.kind)?.title ?? run.kind)}</h3><p class="muted">${escapeHtml(`From ${source(run)} (${run.status}), commit ${commitOf(run)}, ${run.machine}. Each picture: one question, a row per runtime, the ratio and its 95 % interval on a log axis; the line at 1 is the same; ● faster or slower (bar dashed: too uncertain to size), ○ no gain, □ could not tell, ◇ no interval.`)}</p>${answersHtml(answers)}</div>`,
  );
  const front = [
    '<section class="site-tab" id="front">',
    '<h2>Answers</h2>',
    ...pictures,
    `<p class="muted">Each line: the question, the answer with its figure, how sure, and the run and section it comes from. The verdicts read: ${escapeHtml(plainLegend().join('; '))}. Each answer comes from the newest run that asked its question, named above it; each tab shows its kind\u2019s newest run and lists the older ones.</p>`,
    rows.length === 0
      ? '<p>No run found: run <code>pnpm bench:all</code> (or bench:curve, bench:seeds, bench:browser), then <code>pnpm bench:report</code>.</p>'
      : headlineTable(rows, siteDir),
    skipped,
    '</section>',
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sync vs async: results</title>
<style>${REPORT_CSS}${SITE_CSS}</style>
</head>
<body>
<main>
<h1>Sync vs async: results</h1>
<p class="subtitle">Built ${escapeHtml(formatDate(builtAt))} from ${input.runs.length} run${input.runs.length === 1 ? '' : 's'}${input.skipped.length === 0 ? '' : `, ${input.skipped.length} skipped`}.</p>
<nav class="tabs">${nav}</nav>
${front}
${present.map((k) => kindTab(k, grouped.get(k.kind) ?? [], siteDir)).join('\n')}
</main>
<script>${TAB_SCRIPT}</script>
</body>
</html>
`;
}
