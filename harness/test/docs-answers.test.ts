/**
 * The answers' result blocks: `findings` renders the findings under the run line (machine and
 * date from the report), `answers` draws a picture per question as an SVG file beside the page
 * and links it; a picture that no longer matches its report makes the block stale, and an
 * `optional=yes` block whose sample is not committed yet says how to make it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockError, renderBlock } from '../src/docs/block-kinds.ts';
import { refreshDocs } from '../src/docs/refresh.ts';
import { findBlocks } from '../src/docs/result-blocks.ts';
import { benchAnswers } from '../src/report/answers.ts';
import { forestSvg } from '../src/report/render/forest-svg.ts';
import { answersReport } from './fixtures/answers-report.ts';

const root = mkdtempSync(join(tmpdir(), 'docs-answers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const source = 'docs/results/catalogue/report.json';
mkdirSync(join(root, 'docs', 'results', 'catalogue'), { recursive: true });
writeFileSync(join(root, source), JSON.stringify(answersReport()));
writeFileSync(join(root, 'README.md'), '# Readme\n');

const page = (markers: string[]) => markers.map((m) => `${m}\nold\n<!-- /results -->\n`).join('\n');

describe('the findings block', () => {
  it('opens with when and on what the run was measured, then the findings', () => {
    const body = renderBlock({ kind: 'findings', params: { source, depth: '3' } }, root);
    const lines = body.split('\n');
    expect(lines[0]).toMatch(/^Measured 2026-11-25 12:00 UTC on AMD EPYC 7763 × 4, 16\.0 GiB, Ubuntu 24\.04\.1 LTS; .*Wall time 321 s\./);
    expect(body).toContain('### Which off-loop mode stays on the loop');
    expect(body).toContain("- node: async stayed on the loop in fib (ticks 0 %, lag p99 41.0 ms vs sync's 42.0 ms)");
    expect(body).toContain('### Where a worker pays');
    expect(body).toMatch(/- node: faster with a worker in fib \(2\.1\dx, .*\); no gain in regex/);
  });
});

describe('the answers block', () => {
  const marker = `<!-- results:answers source=${source} pictures=docs/catalogue depth=3 -->`;

  it('draws a picture per question beside the page and links it, with the sentences under it', () => {
    writeFileSync(join(root, 'docs', 'catalogue.md'), page([marker]));
    const states = refreshDocs(root, { write: false });
    expect(states.find((s) => s.where.startsWith('docs/catalogue.md'))?.state).toBe('stale');
    refreshDocs(root, { write: true });
    const { questions } = benchAnswers(answersReport());
    for (const q of questions) expect(readFileSync(join(root, 'docs', 'catalogue', `${q.id}.svg`), 'utf8')).toBe(`${forestSvg(q)}\n`);
    const body = findBlocks(readFileSync(join(root, 'docs', 'catalogue.md'), 'utf8'))[0]?.body ?? '';
    expect(body).toMatch(/^Measured 2026-11-25 12:00 UTC/);
    expect(body).toContain('### fib');
    expect(body).toContain('![fib: worker over sync, requests/s](catalogue/fib-worker.svg)');
    expect(body).toContain('- node: worker vs sync, requests/s: no gain: 1.00x');
    expect(refreshDocs(root, { write: false }).every((s) => s.state === 'current')).toBe(true);
  });

  it('is stale when a picture no longer matches its report, and redraws it', () => {
    const file = join(root, 'docs', 'catalogue', 'fib-worker.svg');
    writeFileSync(file, '<svg/>');
    expect(refreshDocs(root, { write: false }).some((s) => s.state === 'stale')).toBe(true);
    refreshDocs(root, { write: true });
    expect(readFileSync(file, 'utf8')).toContain('data-question="fib-worker"');
  });

  it('needs a folder inside the repository for its pictures', () => {
    expect(() => renderBlock({ kind: 'answers', params: { source } }, root)).toThrow(BlockError);
    expect(() => renderBlock({ kind: 'answers', params: { source, pictures: '../elsewhere' } }, root)).toThrow(/pictures=/);
  });
});

describe('a block whose sample is not committed yet', () => {
  it('says how to make it when optional=yes, and is an error otherwise', () => {
    const missing = 'docs/results/none/report.json';
    expect(renderBlock({ kind: 'findings', params: { source: missing, optional: 'yes' } }, root)).toBe(
      'No sample committed yet at `docs/results/none/report.json`: measure, then `pnpm docs:results --take <its report.json> docs/results/none` fills this block.',
    );
    expect(() => renderBlock({ kind: 'findings', params: { source: missing } }, root)).toThrow(/source=docs\/results\/none/);
    expect(existsSync(join(root, 'docs', 'results', 'none'))).toBe(false);
  });
});
