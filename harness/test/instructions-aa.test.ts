// bench:ab's rule for instructions is derived from the committed A/A counts: it must not be
// looser than they show (a rule tighter than the spread would flag A/A pairs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logSpread, processSets } from '../src/docs/instructions-block.ts';
import type { InstructionReport } from '../src/measure/instruction-report.ts';
import { AA_SPREAD } from '../src/measure/instruction-verdict.ts';

const AA = resolve(import.meta.dirname, '../../docs/results/instructions/aa');
const processes = existsSync(AA)
  ? readdirSync(AA)
      .sort()
      .map((folder) => ({ folder, report: JSON.parse(readFileSync(resolve(AA, folder, 'report.json'), 'utf8')) as InstructionReport }))
  : [];

describe('the A/A spread behind the instruction rule', () => {
  const sets = processSets(processes).filter((s) => !s.module.includes('pct'));
  it('is committed for every runtime, from several processes each', () => {
    expect(sets.map((s) => s.runtime).sort()).toEqual(['bun', 'deno', 'node']);
    for (const s of sets) expect(s.figures.length, s.runtime).toBeGreaterThanOrEqual(10);
  });
  it.each(sets.map((s) => [s.runtime, s] as const))('%s: the rule assumes at least the spread the processes show', (runtime, set) => {
    expect(AA_SPREAD[runtime]).toBeGreaterThanOrEqual(logSpread(set.figures));
  });
});
