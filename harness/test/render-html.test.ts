import { describe, expect, it } from 'vitest';
import { loadChartAssets } from '../src/present/html-assets.ts';
import { renderHtml } from '../src/report/render/html.ts';
import { mergeReport } from '../src/report/merge.ts';
import { EXPECTED_SCENARIOS, HOSTILE_REASON, htmlFixtureReport } from './fixtures/html-report.ts';
import { environment, makeCell, parameters, runtimes } from './fixtures.ts';

const assets = loadChartAssets();
const report = htmlFixtureReport();
const html = renderHtml(report, assets);

/** The table row of one cell (the renderer writes these attributes in this order). */
function row(page: string, runtime: string, scenario: string, mode: string): string {
  const match = new RegExp(`<tr[^>]*data-runtime="${runtime}" data-scenario="${scenario}" data-mode="${mode}"[^>]*>.*?</tr>`).exec(page);
  expect(match, `row ${runtime} ${scenario} ${mode}`).not.toBeNull();
  return match?.[0] ?? '';
}

function embeddedJson(page: string): string {
  const match = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(page);
  expect(match).not.toBeNull();
  return match?.[1] ?? '';
}

describe('renderHtml', () => {
  it('stays well under 1 MB with both chart libraries inlined', () => {
    expect(Buffer.byteLength(html)).toBeGreaterThan(assets.chartJs.length);
    expect(Buffer.byteLength(html)).toBeLessThan(1024 * 1024);
  });

  it('loads nothing from the network: no script src, no stylesheet link, no remote URL attribute', () => {
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link[^>]*\shref=/i);
    expect(html).not.toMatch(/\s(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
  });

  it('embeds the report as JSON that parses back to the same report', () => {
    expect(JSON.parse(embeddedJson(html))).toEqual(report);
  });

  it('keeps a reason containing </script> from ending the JSON element or becoming markup', () => {
    expect(html).not.toContain(HOSTILE_REASON);
    // Exactly the page's own four script elements end; nothing from the data ends one early.
    expect(html.match(/<\/script/gi)).toHaveLength(4);
    expect(html.match(/<ol class="cell-notes" data-scenario="hash">.*?<\/ol>/)?.[0]).toContain(
      'answer check failed: &lt;/script&gt;&lt;script&gt;window.pwned = 1&lt;/script&gt; &amp; &lt;b&gt;',
    );
    expect(embeddedJson(html)).toContain('\\u003c/script>');
  });

  it('escapes </script> inside the inlined libraries too', () => {
    const page = renderHtml(report, { chartJs: 'var a = "</script><b>";', errorBarsJs: '/* </SCRIPT> */' });
    expect(page).toContain('var a = "<\\/script><b>";');
    expect(page).toContain('/* <\\/SCRIPT> */');
    expect(page.match(/<\/script/gi)).toHaveLength(4);
  });

  it('prints a 143 µs percentile as 0.14 ms, never as 0', () => {
    const fast = mergeReport({
      createdAt: '2025-01-02T03:04:05.000Z',
      status: 'complete',
      environment,
      parameters,
      runtimes,
      results: [
        makeCell(
          { runtime: 'node', scenario: 'hello', mode: 'baseline', latencyMs: { p50: 0.143, p90: 0.2, p99: 0.43, p999: 0.9, max: 3.2 } },
          { rps: 20_000, probeP99: 0.312 },
        ),
      ],
    });
    const cells = [...row(renderHtml(fast, assets), 'node', 'hello', 'baseline').matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    for (const figure of ['0.14', '0.20', '0.43', '0.90', '3.20', '0.31']) expect(cells).toContain(figure);
    expect(cells).not.toContain('0');
  });

  /** The notes listed below a scenario's table, each as the row's mark numbers it. */
  const notesOf = (page: string, scenario: string): string =>
    new RegExp(`<ol class="cell-notes" data-scenario="${scenario}">.*?</ol>`).exec(page)?.[0] ?? '';
  /** The note a row's mark of this kind leads to. */
  const noteOf = (page: string, rowHtml: string, scenario: string, kind: string): string => {
    const n = new RegExp(`data-note="${kind}"[^>]*>(\\d+)</a>`).exec(rowHtml)?.[1];
    return new RegExp(`<li id="note-${scenario}-${n}"[^>]*>(.*?)</li>`).exec(notesOf(page, scenario))?.[1] ?? '';
  };

  it("marks each flagged row with its notes' numbers, and lists each kind once below the table with the cells it applies to", () => {
    const clientBound = row(html, 'bun', 'hello', 'baseline');
    expect(clientBound).toContain('data-flags="client-bound"');
    expect(clientBound).toContain('61,234');
    // The row holds a number, not the note: a row stays as wide as its figures.
    expect(clientBound).not.toContain('⚠ client-bound');
    expect(noteOf(html, clientBound, 'hello', 'client-bound')).toMatch(/^⚠ client-bound \(.*\): bun baseline/);
    expect(noteOf(html, row(html, 'node', 'fib', 'async'), 'fib', 'unstable')).toMatch(/node async \(CV 28 %\)/);
    expect(noteOf(html, row(html, 'node', 'sleep', 'sync'), 'sleep', 'count-mismatch')).toMatch(/^⚠ count-mismatch/);
    expect(row(html, 'node', 'hello', 'baseline')).toContain('data-flags=""');
    expect(row(html, 'node', 'hello', 'baseline')).not.toContain('data-note');
  });

  it('marks invalid and failed cells where their figures are, with the reason below the table', () => {
    expect(row(html, 'bun', 'hash', 'sync')).toContain('data-status="invalid"');
    expect(noteOf(html, row(html, 'bun', 'hash', 'sync'), 'hash', 'invalid')).toMatch(/^✗ invalid .*: bun sync \(answer check failed/);
    const failed = row(html, 'bun', 'fib', 'worker');
    expect(noteOf(html, failed, 'fib', 'failed')).toMatch(/bun worker \(server exited with code 1\)/);
    // A failed cell's zeros are not figures.
    expect(failed).not.toMatch(/>0(\.00)?</);
  });

  it('names the skipped runtime and its reason in the summary and in every scenario table', () => {
    expect(html).toMatch(/data-runtime="deno" data-status="skipped">.*deno not installed/);
    const missingRows = html.match(
      /<tr class="missing" data-runtime="deno" data-status="skipped"[^>]*>.*?skipped: deno not installed.*?<\/tr>/g,
    );
    expect(missingRows).toHaveLength(Object.keys(EXPECTED_SCENARIOS).length);
  });

  it('gives each scenario present, and only those, its charts and table', () => {
    for (const chart of ['rps', 'latency', 'loop']) {
      const scenarios = [...html.matchAll(new RegExp(`<canvas data-scenario="(\\w+)" data-chart="${chart}"`, 'g'))].map((m) => m[1]);
      expect(scenarios).toEqual(Object.keys(EXPECTED_SCENARIOS));
    }
    expect(html).not.toContain('data-scenario="file"');
  });

  it('opens with what async and worker bought over sync, in figures', () => {
    const summary = html.slice(html.indexOf('id="summary"'), html.indexOf('id="setup"'));
    expect(summary).toContain('<b>hash</b>: async vs sync, requests/s: 2.00x');
    expect(summary).toContain('<b>fib</b>: worker vs sync, requests/s: 1.16x');
    expect(summary).toContain('<b>fib</b>: worker vs sync, requests/s: could not tell: the worker server failed');
    expect(html.indexOf('Environment')).toBeLessThan(html.indexOf('Parameters'));
    expect(html.indexOf('Parameters')).toBeLessThan(html.indexOf('id="scenario-hello"'));
  });

  it('puts a process or connection count beside the scenario on the cards, not the runtime again', () => {
    const base = htmlFixtureReport();
    const hash = base.results.filter((c) => c.runtime === 'node' && c.scenario === 'hash');
    const swept = mergeReport({
      ...base,
      parameters: { ...base.parameters, connectionsSweep: [10, 100] },
      results: [...hash.map((c) => ({ ...c, processes: 2 })), ...hash.map((c) => ({ ...c, connections: 100 }))],
    });
    const summary = renderHtml(swept, assets);
    const cards = summary.slice(summary.indexOf('id="summary"'), summary.indexOf('id="setup"'));
    expect(cards).toContain('<b>hash x2</b>: async vs sync, requests/s: 2.00x');
    expect(cards).toContain('<b>hash @100 conns</b>: async vs sync, requests/s: 2.00x');
    expect(cards).not.toContain('node x2:');
  });

  it('says clearly when the run was interrupted, and not otherwise', () => {
    const interrupted = renderHtml(htmlFixtureReport('interrupted'), assets);
    expect(interrupted).toContain('data-report-status="interrupted"');
    expect(interrupted).toContain('⚠ Interrupted');
    expect(html).toContain('data-report-status="complete"');
    expect(html).not.toContain('Interrupted');
  });

  it('is pure: same report, same page, and the report is left as it was', () => {
    const before = structuredClone(report);
    expect(renderHtml(report, assets)).toBe(html);
    expect(report).toEqual(before);
  });
});
