/** bench:ab's own flags (--a, --b, --margin), taken out before the rest is parsed as a bench plan; and its exit code. */
import { FlagError, numberFlag } from '../cli/flags.ts';
import { DEFAULT_MARGIN } from '../compare/gate.ts';
import type { Report } from '../model/report.ts';

export interface AbFlags {
  a: string;
  b: string;
  /** The practical margin of a heavy cell, as a share. */
  margin: number;
  /** Every other argument: bench flags. */
  rest: string[];
}

const OWN = ['a', 'b', 'margin'] as const;

export function splitAbFlags(argv: readonly string[]): AbFlags {
  const own: Partial<Record<(typeof OWN)[number], string>> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const name = OWN.find((n) => arg === `--${n}` || arg.startsWith(`--${n}=`));
    if (name === undefined) {
      rest.push(arg);
      continue;
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new FlagError(`--${name} needs a value`);
    if (own[name] !== undefined) throw new FlagError(`--${name} given twice`);
    own[name] = value;
  }
  if (own.a === undefined || own.b === undefined)
    throw new FlagError('bench:ab needs --a VARIANT and --b VARIANT (file:<module>, env:KEY=VALUE, runtime:<name@version>, ref:<git ref>)');
  const percent = numberFlag('margin', own.margin, 0.1, 50, false);
  return { a: own.a, b: own.b, margin: percent === undefined ? DEFAULT_MARGIN : percent / 100, rest };
}

/** 1 when any cell regressed (or nothing was measured), else 0; bad input never gets this far (2). */
export function abExitCode(report: Report): number {
  if (!report.results.some((r) => r.status !== 'failed')) return 1;
  return (report.ab?.counts.regressed ?? 0) > 0 ? 1 : 0;
}
