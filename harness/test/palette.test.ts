import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCurveHtml } from '../src/curve/render-html.ts';
import { CONCURRENCY_SCRIPT } from '../src/report/render/concurrency.ts';
import { chartScript } from '../src/report/render/html-chart-script.ts';
import { RUNTIME_COLORS } from '../src/present/palette.ts';
import { CURVE_REPORT } from './fixtures/curve-report.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('one palette', () => {
  it('the bench, concurrency and curve charts declare the runtime colours from palette.ts', () => {
    const declared = `const RUNTIME_COLORS = ${JSON.stringify(RUNTIME_COLORS)};`;
    expect(chartScript()).toContain(declared);
    expect(CONCURRENCY_SCRIPT).toContain(declared);
    expect(renderCurveHtml(CURVE_REPORT, { chartJs: '/* chart */' })).toContain(declared);
  });

  it('no other source file spells a runtime colour', () => {
    const src = join(import.meta.dirname, '..', 'src');
    const spelled = sourceFiles(src).filter(
      (f) => !f.endsWith('palette.ts') && Object.values(RUNTIME_COLORS).some((c) => readFileSync(f, 'utf8').includes(c)),
    );
    expect(spelled).toEqual([]);
  });
});
