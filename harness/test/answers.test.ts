/**
 * The answers of a bench report on a fixed catalogue-like report: the questions and their rows,
 * the sentences ("no difference" when the interval holds 1), the findings (which off-loop mode
 * stayed on the loop, where a worker pays), and the picture of each question: one row per
 * runtime, the line at 1 where the log axis puts it, dots and bars at their ratios.
 */
import { describe, expect, it } from 'vitest';
import { answerQuestions, benchAnswers } from '../src/report/answers.ts';
import { findingsMarkdown } from '../src/report/render/answers.ts';
import { forestDomain, forestSvg, LAYOUT, logTicks, logX } from '../src/report/render/forest-svg.ts';
import { RUNTIME_COLORS } from '../src/present/palette.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { loopFinding, ratioSentence, workerFinding } from '../src/report/text/findings.ts';
import { answersReport } from './fixtures/answers-report.ts';

const throughput = { over: 'worker', base: 'sync', measure: 'throughput' } as const;

describe('the sentences', () => {
  it('give the verdict with the ratio and its interval, and "no gain" when a narrow interval holds 1', () => {
    expect(ratioSentence('bun', throughput, 1.9, [1.8, 2.0])).toBe('bun: worker vs sync, requests/s: faster: 1.90x, 1.80–2.00x');
    expect(ratioSentence('node', throughput, 1.02, [0.95, 1.09])).toBe('node: worker vs sync, requests/s: no gain: 1.02x, 0.95–1.09x');
    expect(ratioSentence('deno', throughput, 0.5, [0.46, 0.54])).toBe('deno: worker vs sync, requests/s: slower: 0.50x, 0.46–0.54x');
    expect(ratioSentence('deno', throughput, 1.9, undefined)).toBe(
      'deno: worker vs sync, requests/s: 1.90x (too few runs for an interval)',
    );
    expect(ratioSentence('node', { ...throughput, measure: 'bystander' }, 0.0079, undefined)).toBe(
      'node: with worker, a bystander waits 127x less than with sync (p99)',
    );
    expect(ratioSentence('bun', { ...throughput, measure: 'bystander' }, 1.02, undefined)).toBe(
      'bun: with worker, a bystander waits about as long as with sync (p99)',
    );
  });

  it('read a shared-host cell or an interval holding 1 past the margin as could not tell, never as no gain', () => {
    expect(ratioSentence('node', { ...throughput, over: 'async' }, 1.48, [0.91, 2.43])).toBe(
      'node: async vs sync, requests/s: could not tell: 0.91–2.43x',
    );
    expect(ratioSentence('node', { ...throughput, over: 'async' }, 1.02, [0.97, 1.06], 'the host was shared during async')).toBe(
      'node: async vs sync, requests/s: could not tell: the host was shared during async',
    );
    expect(
      workerFinding('bun', [
        { scenario: 'kdf', ratio: 1.8, ci: [1.75, 1.85] },
        { scenario: 'hash', ratio: 1.48, ci: [0.91, 2.43] },
        { scenario: 'json', ratio: 1.5, ci: [1.4, 1.6], doubt: 'the host was shared during worker' },
        { scenario: 'sqlite', ratio: 1.48, ci: [1.15, 1.9] },
      ]),
    ).toBe(
      'bun: faster with a worker in kdf (1.80x, 1.75–1.85x), sqlite (by 15 to 90 % (too uncertain to size)); could not tell in hash (0.91–2.43x), json (the host was shared during worker)',
    );
    expect(workerFinding('node', [{ scenario: 'fib', ratio: 0.91, ci: [0.74, 1.1], doubt: 'the host was shared during worker' }])).toBe(
      'node: could not tell in fib (the host was shared during worker)',
    );
  });

  it('say per runtime where a worker pays, makes no difference, or costs', () => {
    expect(
      workerFinding('node', [
        { scenario: 'fib', ratio: 2.1, ci: [1.99, 2.23] },
        { scenario: 'json', ratio: 1.02, ci: [0.95, 1.09] },
        { scenario: 'sqlite', ratio: 0.41, ci: [0.39, 0.43] },
        { scenario: 'render', ratio: 1.3 },
      ]),
    ).toBe(
      'node: faster with a worker in fib (2.10x, 1.99–2.23x); no gain in json (1.02x, 0.95–1.09x); slower in sqlite (0.41x, 0.39–0.43x); too few runs for an interval in render (1.30x)',
    );
    expect(
      workerFinding('deno', [
        { scenario: 'json', ratio: 1.5 },
        { scenario: 'kdf', ratio: 2 },
      ]),
    ).toBe('deno: worker vs sync, too few runs for an interval: json (1.50x), kdf (2.00x)');
    expect(workerFinding('bun', [{ scenario: 'json', ratio: 1, ci: [0.9, 1.1] }])).toBe(
      'bun: faster with a worker in no scenario; no gain in json (1.00x, 0.90–1.10x)',
    );
  });

  it("reconcile a call that stayed on the loop by its ticks with a lag well below sync's", () => {
    expect(loopFinding('deno', 'async', [{ scenario: 'gzip', verdict: 'stayed', ticksShare: 0, lagP99Ms: 31.1, syncLagP99Ms: 56 }])).toBe(
      "deno: async stayed on the loop in gzip (ticks 0 %, lag p99 31.1 ms vs sync's 56.0 ms, the work still ran on the loop, in shorter holds than sync's)",
    );
    expect(loopFinding('node', 'async', [{ scenario: 'json', verdict: 'stayed', ticksShare: 0, lagP99Ms: 50, syncLagP99Ms: 56 }])).toBe(
      "node: async stayed on the loop in json (ticks 0 %, lag p99 50.0 ms vs sync's 56.0 ms)",
    );
  });

  it('say which calls stayed on the loop first, with the figure each verdict rests on', () => {
    expect(
      loopFinding('deno', 'async', [
        { scenario: 'gzip', verdict: 'left', ticksShare: 0.96 },
        { scenario: 'json', verdict: 'stayed', ticksShare: 0 },
        { scenario: 'kdf', verdict: 'partly', lagP99Ms: 12, syncLagP99Ms: 20 },
      ]),
    ).toBe(
      "deno: async stayed on the loop in json (ticks 0 %); partly left it in kdf (lag p99 12.0 ms vs sync's 20.0 ms); left it in gzip (ticks 96 %)",
    );
    // Left by its ticks: the lag adds nothing; without a loop check the lag is the evidence.
    expect(
      loopFinding('bun', 'worker', [
        { scenario: 'fib', verdict: 'left', ticksShare: 0.99, lagP99Ms: 2, syncLagP99Ms: 40 },
        { scenario: 'json', verdict: 'left', lagP99Ms: 3, syncLagP99Ms: 30 },
      ]),
    ).toBe("bun: worker left the loop in fib (ticks 99 %), json (lag p99 3.00 ms vs sync's 30.0 ms)");
  });
});

describe('the questions of a report', () => {
  const report = answersReport();
  const questions = answerQuestions(report);

  it('are grouped by scenario, then by pair, requests/s before the bystander', () => {
    expect(questions.map((q) => q.id)).toEqual([
      'hello-hono',
      'hello-hono-bystander',
      'fib-worker',
      'fib-worker-bystander',
      'fib-async',
      'fib-async-bystander',
      'regex-worker',
      'regex-worker-bystander',
      'kdf-async',
      'kdf-async-bystander',
    ]);
  });

  it('list the runtimes in the report order, and only cells that can carry a figure', () => {
    const fib = questions.find((q) => q.id === 'fib-worker');
    expect(fib?.rows.map((r) => r.lane)).toEqual(['node', 'bun']);
    expect(fib?.rows[1]?.sentence).toMatch(/^bun: worker vs sync, requests\/s: faster: 1\.90x, 1\.8\d–1\.9\dx$/);
    // bun's regex worker cell is invalid: no row, not a zero.
    expect(questions.find((q) => q.id === 'regex-worker')?.rows.map((r) => r.lane)).toEqual(['node']);
  });

  it('give the findings: stayed on the loop and where a worker pays, per runtime', () => {
    const answers = benchAnswers(report);
    expect(answers.loop).toEqual([
      expect.stringMatching(
        /^node: async stayed on the loop in fib \(ticks 0 %, lag p99 41\.0 ms vs sync's 42\.0 ms\); left it in kdf \(ticks 90 %/,
      ),
      expect.stringMatching(/^node: worker left the loop in fib \(ticks 99 %.*\), regex \(ticks 95 %/),
      expect.stringMatching(/^bun: async stayed on the loop in fib \(ticks 1\.0 %/),
      expect.stringMatching(/^bun: worker left the loop in fib/),
    ]);
    expect(answers.worker).toEqual([
      expect.stringMatching(/^node: faster with a worker in fib \(2\.1\dx, [\d.]+–[\d.]+x\); no gain in regex \(1\.00x, 0\.9\d–1\.0\dx\)$/),
      expect.stringMatching(/^bun: faster with a worker in fib \(1\.90x/),
    ]);
    expect(answers.conditions).toMatch(/^Under \d+ connections; the servers on /);
  });

  it('put the findings at the top of the bench report, before the scenarios and how to read them', () => {
    const markdown = renderMarkdown(report);
    const { conditions, ...answers } = benchAnswers(report);
    const findings = findingsMarkdown(answers, '###') ?? '';
    expect(markdown).toContain(findings);
    // The conditions once, before the verdicts.
    expect(markdown.indexOf(conditions ?? '?')).toBeLessThan(markdown.indexOf('- **fib**, worker vs sync'));
    expect(markdown.split(conditions ?? '?')).toHaveLength(2);
    expect(markdown.indexOf('## Findings')).toBeLessThan(markdown.indexOf('## How to read'));
    expect(markdown.indexOf('## Findings')).toBeLessThan(markdown.indexOf('## hello'));
  });
});

describe('the picture of a question', () => {
  const question = answerQuestions(answersReport()).find((q) => q.id === 'fib-worker');
  if (question === undefined) throw new Error('fixture has no fib-worker question');
  const svg = forestSvg(question);
  const domain = forestDomain(question.rows);
  const plotLeft = LAYOUT.pad + LAYOUT.labelWidth;
  const at = (v: number) => Number(logX(v, domain, plotLeft, LAYOUT.plotWidth).toFixed(1));

  it('draws one row per runtime, in its colour, with its sentence beside it', () => {
    const rows = [...svg.matchAll(/<g class="row" data-lane="([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual(['node', 'bun']);
    expect(svg).toContain(`fill="${RUNTIME_COLORS.bun}">bun</text>`);
    const sentences = [...svg.matchAll(/<text class="sentence" x="([\d.]+)"[^>]*>([^<]+)</g)];
    expect(sentences.map((m) => m[2])).toEqual(question.rows.map((r) => r.sentence));
    expect(sentences.every((m) => Number(m[1]) === plotLeft + LAYOUT.plotWidth + LAYOUT.gap)).toBe(true);
    expect(svg).toContain('>bun: worker vs sync, requests/s: faster: 1.90x');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('puts the line at 1, labelled "the same", where the log axis has 1', () => {
    const one = svg.match(/<line class="one" x1="([\d.]+)" x2="([\d.]+)"/);
    expect(Number(one?.[1])).toBe(at(1));
    expect(Number(one?.[2])).toBe(at(1));
    expect(svg).toContain('>1x: the same</text>');
  });

  it('places dots and bars on a log scale: 2x and 0.5x equally far from 1', () => {
    expect(at(2) - at(1)).toBeCloseTo(at(1) - at(0.5), 0);
    const cx = [...svg.matchAll(/<circle class="ratio" cx="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(cx).toEqual(question.rows.map((r) => at(r.ratio)));
    const bars = [...svg.matchAll(/<line class="interval" x1="([\d.]+)" x2="([\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(bars).toEqual(question.rows.map((r) => [at(r.ci?.[0] ?? 0), at(r.ci?.[1] ?? 0)]));
    expect(logTicks(domain)).toContain(1);
  });

  it('draws an interval that holds 1 hollow and says "no gain"', () => {
    const same = answerQuestions(answersReport()).find((q) => q.id === 'regex-worker');
    const picture = forestSvg(same ?? question);
    expect(picture).toMatch(/data-verdict="no-gain"><title>node: worker vs sync, requests\/s: no gain/);
    expect(picture).toMatch(/<circle class="ratio" [^>]*fill="#fff"/);
    expect(svg).toMatch(/data-verdict="more"/);
    expect(svg).not.toMatch(/<circle class="ratio" [^>]*fill="#fff"/);
  });

  it('draws no interval and could not tell with marks of their own, never the hollow dot of no gain', () => {
    const row = question.rows[0];
    if (row === undefined) throw new Error('no row');
    const noInterval = forestSvg({ ...question, rows: [{ ...row, ratio: 0.013, ci: undefined, verdict: { reading: 'no-interval' } }] });
    expect(noInterval).toMatch(/data-verdict="no-interval"/);
    expect(noInterval).toMatch(/<path class="ratio" d="M/);
    expect(noInterval).not.toMatch(/<circle class="ratio"/);
    const inconclusive = forestSvg({
      ...question,
      rows: [{ ...row, ratio: 1.48, ci: [0.91, 2.43], verdict: { reading: 'inconclusive', why: 'x' } }],
    });
    expect(inconclusive).toMatch(/data-verdict="could-not-tell"/);
    expect(inconclusive).toMatch(/<rect class="ratio"/);
    expect(inconclusive).toMatch(/class="interval"[^>]*stroke-dasharray/);
  });

  it('keeps text from the report as text', () => {
    const row = question.rows[0];
    if (row === undefined) throw new Error('no row');
    const odd = forestSvg({ ...question, title: 'a <b> & "c"', rows: [{ ...row, lane: '<node>' }] });
    expect(odd).not.toContain('<b>');
    expect(odd).toContain('&lt;node&gt;');
  });
});
