/**
 * A seed claim's row in the report's one vocabulary (present/verdict-words.ts): the measured
 * ratio as faster / slower / no gain / could not tell, and the claim's verdict in plain words.
 * seeds/verdict.ts decides; this only says it. Pure.
 */
import { formatRatio } from '../present/formats.ts';
import { intervalText, verdictWords } from '../present/verdict-words.ts';
import { CLAIMS } from './claims.ts';
import type { ClaimRow } from './judge.ts';
import type { Verdict } from './verdict.ts';

/** Whether the claim's ratio is of times per request (above 1: slower), not of requests served (above 1: faster). */
export function ratioOfTimes(claim: ClaimRow['claim']): boolean {
  return CLAIMS.find((c) => c.id === claim)?.ratioOf.includes('time') === true;
}

/**
 * The measured ratio's verdict: "faster: 1.85x, 1.75–1.96x" for requests; for times the word a
 * speed would get, with the figures as the claim states them: "slower: 107x the time, 91.21–126x".
 */
export function measuredWords(row: Pick<ClaimRow, 'claim' | 'ratio' | 'status'>): string {
  const r = row.ratio;
  if (r === undefined) return `could not tell: ${row.status === 'ok' ? 'no run could carry a ratio' : row.status}`;
  if (!ratioOfTimes(row.claim)) return verdictWords({ ratio: r.median, ci: r.ci95 }).text;
  const speed = verdictWords({ ratio: 1 / r.median, ci: [1 / r.ci95[1], 1 / r.ci95[0]] });
  const time = `${intervalText(r.ci95)} the time`;
  switch (speed.kind) {
    case 'sized':
    case 'no-gain':
      return `${speed.word}: ${formatRatio(r.median)} the time, ${intervalText(r.ci95)}`;
    case 'unsized':
      return `${speed.word}, ${time} (too uncertain to size)`;
    case 'unclear':
      return `${speed.word}: ${time}`;
    default:
      return speed.text;
  }
}

/**
 * The claim's verdict (report.json keeps holds, partly, does not hold, inconclusive as data) in
 * words. A claim of no difference "holds" whenever the interval holds 1; where that interval also
 * reaches past ±10 % (the measured ratio reads "could not tell"), it is only not refuted.
 */
export function claimWords(verdict: Verdict, claimed: number, ci?: readonly [number, number]): string {
  switch (verdict) {
    case 'holds':
      return claimed === 1 && ci !== undefined && verdictWords({ ratio: 1, ci }).kind === 'unclear'
        ? 'not refuted: could not tell'
        : 'claim holds';
    case 'partly':
      return claimed === 1 ? 'partly: a small difference' : 'partly: its direction, not its size';
    case 'does not hold':
      return 'does not hold';
    case 'inconclusive':
      return 'could not tell';
    case 'not measured':
      return 'could not tell: not measured';
  }
}
