/**
 * The `pair` block: what `bench:compare --json` said of two runs of one commit (an A/A pair),
 * in one paragraph: when they ran, whether the host held from the first start to the last end
 * (each report's own host check, the first run's reading before against the second's after),
 * what the regression gate found, and how many headline ratios and cells agreed by the
 * reproducibility rule. Nothing here measures: every figure is the comparison's.
 */
import type { ReportComparison, ReportSide } from '../compare/compare.ts';
import type { Reproducibility } from '../compare/reproduced.ts';
import { formatDate } from '../present/formats.ts';
import { checkAcross } from '../system/host-speed.ts';

const percent = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} %`;

function agreed(label: string, r: Reproducibility | undefined): string | undefined {
  if (r === undefined) return undefined;
  const share = r.of === 0 ? 0 : Math.round((r.reproduced / r.of) * 100);
  return `${label} ${r.reproduced} of ${r.of} (${share} %)`;
}

/** "+1.2 % from the first run's start to the second's end (each run's own check: −0.4 %, +2.0 %)". */
function hostLine(a: ReportSide, b: ReportSide): string {
  const across = checkAcross(a.hostCheck, b.hostCheck);
  if (across === undefined || a.hostCheck === undefined) return 'The reports carry no host check.';
  const own = [a.hostCheck.change, b.hostCheck?.change].map((c) => (c === undefined ? 'none' : percent(c))).join(' and ');
  return (
    `The host ${across.held ? 'held' : 'moved'} (independent check, fib(${a.hostCheck.n}) per CPU): ${percent(across.change)} from the first run's start to the ` +
    `second's end, ${own} within each run.`
  );
}

function minutesApart(a: string, b: string): number {
  return Math.round((Date.parse(b) - Date.parse(a)) / 60_000);
}

/** Whether a parsed JSON is what `bench:compare --json` writes. */
export function isComparison(json: unknown): json is ReportComparison {
  const c = json as Partial<ReportComparison>;
  return c.baseline?.createdAt !== undefined && c.current?.createdAt !== undefined && c.counts !== undefined;
}

export function renderPair(c: ReportComparison): string {
  const commits = c.baseline.commit === c.current.commit ? `commit ${c.current.commit.slice(0, 7)}` : 'two commits';
  const gap = minutesApart(c.baseline.createdAt, c.current.createdAt);
  const gate = `${c.counts.regressed} regression${c.counts.regressed === 1 ? '' : 's'} and ${c.counts.improved} improvement${c.counts.improved === 1 ? '' : 's'}`;
  const agreements = [
    agreed('headline paired ratios', c.ratioReproducibility),
    agreed("cells' requests/s", c.reproducibility),
    agreed("cells' drift-cancelled req/unit", c.driftCancelledReproducibility),
  ].filter((x) => x !== undefined);
  return [
    `Two default runs of ${commits}, started ${formatDate(c.baseline.createdAt)} and ${formatDate(c.current.createdAt)} (${gap} min apart).`,
    hostLine(c.baseline, c.current),
    `\`bench:compare\`: ${gate}; agreed (medians within their combined 95 % interval or 3 %): ${agreements.join('; ')}.`,
  ].join(' ');
}
