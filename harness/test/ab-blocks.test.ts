import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { abPairsBlock, abPromiseBlock, abSeenBlock } from '../src/docs/ab-blocks.ts';
import { renderBlock } from '../src/docs/block-kinds.ts';
import type { AbCell, AbPlan } from '../src/model/ab.ts';
import type { Report } from '../src/model/report.ts';

const side = (sha: string, name: string) => ({
  variant: `file:/x/${name}`,
  kind: 'file' as const,
  lanes: ['node-A'],
  file: { path: `/x/${name}`, sha256: sha },
});
const cell = (verdict: AbCell['verdict'], detectable: number): AbCell => ({
  runtime: 'node',
  scenario: 'checksum',
  mode: 'sync',
  verdict,
  ratio: 0.95,
  ci95: [0.93, 0.97],
  pairs: 8,
  processPairs: 4,
  margin: 0.05,
  detectable,
});
const pair = (a: string, b: string, cells: AbCell[]): Report => {
  const ab: AbPlan = { a: side(a, 'checksum.ts'), b: side(b, b === a ? 'checksum.ts' : 'checksum-5pct.ts'), order: 'ABBA', margin: 0.05 };
  const counts = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 };
  for (const c of cells) counts[c.verdict]++;
  return {
    createdAt: '2026-11-26T23:40:00Z',
    parameters: { ab },
    ab: { cells, counts },
    timing: { wallSec: 88.4, phasesSec: {} },
  } as unknown as Report;
};

describe('the ab-pairs block', () => {
  it('tells A/A pairs from A/B pairs by what each side ran and counts the flags of each', () => {
    const body = abPairsBlock([
      { folder: '1-ab', report: pair('aa', 'bb', [cell('regressed', 0.03), cell('inconclusive', 0.08)]) },
      { folder: '2', report: pair('aa', 'aa', [cell('unchanged', 0.025), cell('improved', 0.04)]) },
      // sides that differ only in what nothing reads, declared A/A by the folder's name
      { folder: '3-aa-default', report: pair('aa', 'cc', [cell('inconclusive', 0.2)]) },
    ]);
    expect(body).toContain(
      'A/B pairs (A and B differ): 1 of 2 pair-cells flagged; their estimates of B/A: median 0.950x, from 0.950x to 0.950x.',
    );
    expect(body).toContain('A/A pairs (both sides the same): 1 of 3 pair-cells flagged (false flags).');
    expect(body).toContain('Smallest change a pair could see: median 4.0 %, from 2.5 % to 20.0 %.');
    expect(body).toMatch(
      /\| A\/B +\| file:checksum\.ts → file:checksum-5pct\.ts \| node checksum\/sync \| 0\.950x \(0\.930-0\.970\) \| +8 \(4\) \| +3\.0 % \| regressed +\|/,
    );
  });

  it('takes the middle two of an even count for a median, and says when a set has no A/A pairs', () => {
    const body = abPairsBlock([
      { folder: '1', report: pair('aa', 'bb', [{ ...cell('regressed', 0.03), ratio: 0.94 }]) },
      { folder: '2', report: pair('aa', 'bb', [{ ...cell('inconclusive', 0.05), ratio: 0.97 }]) },
    ]);
    expect(body).toContain('their estimates of B/A: median 0.955x, from 0.940x to 0.970x.');
    expect(body).toContain('A/A pairs (both sides the same): none in this set.');
    expect(body).toContain('Smallest change a pair could see: median 4.0 %, from 3.0 % to 5.0 %.');
  });

  it("counts a file pair's other scenarios as A/A: the same built-in code ran on both sides", () => {
    const report = pair('aa', 'bb', [cell('regressed', 0.03), { ...cell('unchanged', 0.03), scenario: 'hash' }]);
    const ab = report.parameters.ab!;
    for (const s of [ab.a, ab.b]) s.file = { ...s.file!, scenario: 'checksum' };
    const body = abPairsBlock([{ folder: 'mixed', report }]);
    expect(body).toContain('A/B pairs (A and B differ): 1 of 1 pair-cells flagged');
    expect(body).toContain('A/A pairs (both sides the same): 0 of 1 pair-cells flagged');
    expect(body).toMatch(/\| A\/A +\| file:checksum\.ts → file:checksum-5pct\.ts \| node hash\/sync +\|/);
  });
});

describe("a set judged adjusted for the machine's speed", () => {
  // Adjusted 0.95x (0.93-0.97): regressed; its unadjusted interval (0.90-1.01) holds 1.
  const adjusted = (verdict: AbCell['verdict'], unadjusted: [number, number]): AbCell => ({
    ...cell(verdict, 0.03),
    speedAdjusted: { slope: 0.8, correlation: 0.7, unadjusted: { ratio: 0.955, ci95: unadjusted } },
  });

  it('says what its verdicts would have been on the unadjusted intervals its reports keep', () => {
    const body = abPairsBlock([
      { folder: 'ab-01', report: pair('aa', 'bb', [adjusted('regressed', [0.9, 1.01])]) },
      { folder: 'ab-02', report: pair('aa', 'bb', [adjusted('regressed', [0.93, 0.98])]) },
      { folder: 'aa-01', report: pair('aa', 'aa', [{ ...adjusted('unchanged', [0.96, 1.03]), ratio: 0.99, ci95: [0.97, 1.01] }]) },
    ]);
    expect(body).toContain(
      "Adjusted for the machine's speed: 3 of 3 pair-cells; judged on their unadjusted intervals instead: A/B 1 of 2 flagged, A/A 0 of 1 flagged, could see median 3.6 %.",
    );
    // A set none of whose cells was adjusted says nothing of it.
    expect(abPairsBlock([{ folder: 'ab-01', report: pair('aa', 'bb', [cell('regressed', 0.03)]) }])).not.toContain('Adjusted');
  });

  it("says in the promise table how many of a set's cells were adjusted", () => {
    const body = abPromiseBlock([
      {
        set: 'some',
        pairs: [
          {
            folder: 'ab-01',
            report: pair('aa', 'bb', [adjusted('regressed', [0.9, 1.01]), { ...cell('regressed', 0.03), runtime: 'bun' }]),
          },
        ],
      },
    ]);
    expect(body).toMatch(/\| some +\| checksum\/sync +\| node, bun +\| 2 share it +\| +2 of 2 \|.*\| 1 of 2 +\|$/m);
  });
});

describe('the ab-promise block', () => {
  const sets = [
    {
      set: 'one',
      pairs: [
        { folder: 'ab-01', report: pair('aa', 'bb', [{ ...cell('regressed', 0.03), ratio: 0.94 }]) },
        { folder: 'ab-02', report: pair('aa', 'bb', [{ ...cell('inconclusive', 0.05), ratio: 0.98 }]) },
        {
          folder: 'aa-01',
          report: pair('aa', 'aa', [cell('unchanged', 0.03), { ...cell('improved', 0.03), runtime: 'bun' }]),
        },
      ],
    },
    { set: 'two', pairs: [{ folder: 'ab-01', report: pair('aa', 'bb', [{ ...cell('regressed', 0.04), mode: 'async', ratio: 0.9 }]) }] },
  ];

  it("gives a row per set and cell, with the A/B runs' budget share, and totals the false flags over every set", () => {
    const body = abPromiseBlock(sets);
    // The A/B runs measured one cell (the budget to itself); the A/A run's two cells do not change that.
    expect(body).toMatch(
      /\| one +\| checksum\/sync +\| node \(A\/A: node, bun\) +\| it alone +\| +1 of 2 \| 0\.960x \(0\.940-0\.980\) \| +1 of 2 \| +3\.0 % \|/,
    );
    expect(body).toMatch(
      /\| two +\| checksum\/async +\| node +\| it alone +\| +1 of 1 \| 0\.900x \(0\.900-0\.900\) \| +— \| +4\.0 % \| +4; 4, 4 \| none +\|/,
    );
    expect(body).toContain(
      "Over all 2 sets: A/B pair-cells flagged 2 of 3, read unchanged 0 (the interval within the margin while B did the margin's share more work), the rest inconclusive; A/A pair-cells flagged 1 of 2 (false flags).",
    );
    const cleared = abPromiseBlock([
      { set: 'one', pairs: [{ folder: 'ab-01', report: pair('aa', 'bb', [{ ...cell('unchanged', 0.03), ratio: 1.01 }]) }] },
    ]);
    expect(cleared).toContain('A/B pair-cells flagged 0 of 1, read unchanged 1 (the interval within the margin');
  });

  it('says how many process pairs the cells had and would have needed, at their spread, to see the margin', () => {
    // 4 pairs each; 2.1 % half-width is within 2.5 % (4 enough), 7.5 % needs 17 (t(16)/sqrt(17) = 0.514 of t(3)/sqrt(4)).
    const wide = { ...cell('inconclusive', 0.078), ci95: [0.9, 1.045] as [number, number] };
    const body = abPromiseBlock([
      { set: 'need', pairs: [{ folder: 'ab-01', report: pair('aa', 'bb', [cell('regressed', 0.03), wide, wide]) }] },
    ]);
    expect(body).toMatch(/\| +4; 17, 17 \| none +\|/);
  });

  it("says when a set's runs were made to hold more requests than bench:ab's own floor", () => {
    const longer = (report: Report): Report => ({ ...report, parameters: { ...report.parameters, minRequests: 100 } });
    const body = abPromiseBlock([
      { set: 'long', pairs: sets[0]!.pairs.map((p) => ({ ...p, report: longer(p.report) })) },
      { set: 'mixed', pairs: [sets[1]!.pairs[0]!, { folder: 'ab-02', report: longer(sets[1]!.pairs[0]!.report) }] },
    ]);
    expect(body).toMatch(/\| long +\| checksum\/sync +\| node \(A\/A: node, bun\) +\| it alone; runs ≥ 100 requests +\|/);
    expect(body).toMatch(/\| mixed +\| checksum\/async +\| node +\| it alone; runs ≥ 20 or 100 requests +\|/);
    // The sets run at bench:ab's floor say nothing of it.
    expect(abPromiseBlock(sets)).not.toContain('requests');
    const budget = (report: Report): Report => ({ ...report, parameters: { ...report.parameters, budgetSec: 1380 } });
    expect(abPromiseBlock([{ set: 'more', pairs: sets[0]!.pairs.map((p) => ({ ...p, report: budget(p.report) })) }])).toMatch(
      /\| more +\| checksum\/sync +\| node \(A\/A: node, bun\) +\| it alone; --budget 1380 +\|/,
    );
    expect(abPromiseBlock(sets)).not.toContain('--budget');
  });

  it('reads each named set as a folder of pairs, and names a set that holds none', () => {
    const root = mkdtempSync(join(tmpdir(), 'ab-promise-'));
    try {
      for (const { set, pairs } of sets)
        for (const { folder, report } of pairs) {
          mkdirSync(join(root, 'ab', set, folder), { recursive: true });
          writeFileSync(join(root, 'ab', set, folder, 'report.json'), JSON.stringify(report));
        }
      mkdirSync(join(root, 'ab', 'empty'));
      // What the sets ran on (how many runs, from when to when, machines and versions), then the table.
      const [caption, blank, ...table] = renderBlock({ kind: 'ab-promise', params: { source: 'ab/', sets: 'one,two' } }, root).split('\n');
      expect(table.join('\n')).toBe(abPromiseBlock(sets));
      expect(blank).toBe('');
      const runs = sets.flatMap((s) => s.pairs);
      expect(caption).toMatch(
        new RegExp(`^${runs.length} runs from \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC to \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC`),
      );
      expect(() => renderBlock({ kind: 'ab-promise', params: { source: 'ab/', sets: 'one,empty' } }, root)).toThrow(
        'sets: empty holds no <pair>/report.json',
      );
      expect(() => renderBlock({ kind: 'ab-promise', params: { source: 'ab/' } }, root)).toThrow(/needs sets=/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the ab-seen block', () => {
  it('lays one run out by cell and runtime: what each pair could see, its verdict, and what the run cost', () => {
    const report = pair('aa', 'bb', [
      { ...cell('regressed', 0.031), processPairs: 6 },
      { ...cell('inconclusive', 0.12), runtime: 'deno', processPairs: 6, sharedRounds: 2 },
      { ...cell('unchanged', 0.04), scenario: 'hash', ratio: 1.01, processPairs: 8 },
    ]);
    const ab = report.parameters.ab!;
    for (const s of [ab.a, ab.b]) s.file = { ...s.file!, scenario: 'checksum' };
    const body = abSeenBlock(report, ab, report.ab!);
    expect(body).toContain(
      '3 cells on node, deno, 88 s in all (29 s a cell); process pairs a cell: median 6, 6 to 8; 2 rounds left out as shared.',
    );
    expect(body).toContain('Flagged (regressed or improved): A/B cells 1 of 2, A/A cells 0 of 1.');
    expect(body).toMatch(/\| checksum\/sync \| A\/B +\| +3\.1 % \(0\.950x, regressed\) \| +12\.0 % \(0\.950x, could not tell\) \|/);
    // hash ran only on node: deno's entry is empty; the built-in ran the same code on both sides
    expect(body).toMatch(/\| hash\/sync +\| A\/A +\| +4\.0 % \(1\.010x, no change\) \| +\|/);
  });
});
