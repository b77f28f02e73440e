/**
 * The source's browser claims checked against the measured cases: each verdict quotes the
 * ratio it rests on, from ok cases at the same browser and n only.
 */
import type { BrowserCaseResult, BrowserSection } from './study.ts';

export interface BrowserClaim {
  claim: string;
  verdict: 'confirmed' | 'refuted' | 'not measured';
  evidence: string;
}

type Key = Pick<BrowserCaseResult, 'browser' | 'variant' | 'mode' | 'n'>;
const find = (s: BrowserSection, k: Key) =>
  s.cases.find((c) => c.status === 'ok' && c.browser === k.browser && c.variant === k.variant && c.mode === k.mode && c.n === k.n);
const ms = (c: BrowserCaseResult | undefined) => c?.callMs?.median;
const fmt = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));

/** Ratios a/b over every browser and n where both are ok. */
function ratios(s: BrowserSection, a: Omit<Key, 'n' | 'browser'>, b: Omit<Key, 'n' | 'browser'>) {
  const out: { browser: string; n: number; ratio: number }[] = [];
  for (const c of s.cases) {
    if (c.variant !== a.variant || c.mode !== a.mode) continue;
    const x = ms(find(s, c));
    const y = ms(find(s, { ...b, browser: c.browser, n: c.n }));
    if (x !== undefined && y !== undefined && y > 0) out.push({ browser: c.browser, n: c.n, ratio: x / y });
  }
  return out;
}

const list = (rs: { browser: string; n: number; ratio: number }[]) => rs.map((r) => `${r.browser} n=${r.n}: ${fmt(r.ratio)}x`).join(', ');

export function checkClaims(s: BrowserSection): BrowserClaim[] {
  const claims: BrowserClaim[] = [];
  const slow = ratios(s, { variant: 'plain', mode: 'async' }, { variant: 'plain', mode: 'sync' });
  claims.push({
    claim: 'asyncFib is much slower than syncFib (>= 10x)',
    verdict: slow.length === 0 ? 'not measured' : slow.every((r) => r.ratio >= 10) ? 'confirmed' : 'refuted',
    evidence: `async/sync time: ${list(slow)}`,
  });
  const busy = ratios(s, { variant: 'busy', mode: 'async' }, { variant: 'busy', mode: 'sync' });
  claims.push({
    claim: 'async busy ~ sync busy (within 25%)',
    verdict: busy.length === 0 ? 'not measured' : busy.every((r) => r.ratio <= 1.25 && r.ratio >= 0.8) ? 'confirmed' : 'refuted',
    evidence: `async/sync time: ${list(busy)}`,
  });
  const cross: { n: number; ratio: number }[] = [];
  for (const c of s.cases) {
    if (c.browser !== 'firefox' || c.variant !== 'plain' || c.mode !== 'async') continue;
    const f = ms(find(s, c));
    const ch = ms(find(s, { ...c, browser: 'chromium' }));
    if (f !== undefined && ch !== undefined && ch > 0) cross.push({ n: c.n, ratio: f / ch });
  }
  claims.push({
    claim: 'Chromium is faster than Firefox on asyncFib',
    verdict: cross.length === 0 ? 'not measured' : cross.every((r) => r.ratio > 1) ? 'confirmed' : 'refuted',
    evidence: `Firefox/Chromium time: ${cross.map((r) => `n=${r.n}: ${fmt(r.ratio)}x`).join(', ')}`,
  });
  // The source saw Chromium spread asyncFib over all 12 cores; CPU of the whole browser tree says.
  const spread = s.cases.filter(
    (x) => x.status === 'ok' && x.browser === 'chromium' && x.variant === 'plain' && x.mode === 'async' && x.cpu !== undefined,
  );
  const most = Math.max(0, ...spread.map((x) => x.cpu?.cores ?? 0));
  claims.push({
    claim: 'Chromium runs asyncFib on several cores at once (> 1.5 cores)',
    verdict: spread.length === 0 ? 'not measured' : most > 1.5 ? 'confirmed' : 'refuted',
    evidence: `browser process tree CPU / wall: ${spread.map((x) => `n=${x.n}: ${fmt(x.cpu?.cores ?? 0)} cores (busiest ${x.cpu?.top[0]?.thread ?? '-'})`).join(', ')}`,
  });
  const memo = ratios(s, { variant: 'memo', mode: 'async' }, { variant: 'memo', mode: 'sync' });
  // memo-late is the source's own asyncMemoFib; memo stores the promise, so it is hit.
  const late = ratios(s, { variant: 'memo-late', mode: 'async' }, { variant: 'memo-late', mode: 'sync' });
  claims.push({
    claim: 'asyncMemo is slower than syncMemo',
    verdict: memo.length + late.length === 0 ? 'not measured' : [...memo, ...late].every((r) => r.ratio > 1) ? 'confirmed' : 'refuted',
    evidence: `async/sync time, memo: ${list(memo)}${late.length > 0 ? `; memo-late (the source's): ${list(late)}` : ''}`,
  });
  // "Free" = the 10 ms timer's p99 lateness in worker mode stays under one tick while sync's does not.
  const free = s.cases.filter((c) => c.status === 'ok' && c.mode === 'worker');
  const freed = free.filter((c) => (c.timerLateMs?.p99 ?? Infinity) < 10 && (find(s, { ...c, mode: 'sync' })?.timerLateMs?.p99 ?? 0) >= 10);
  claims.push({
    claim: 'a Web Worker cannot be awaited (source); workers can be awaited and free the main thread (issue)',
    verdict: free.length === 0 ? 'not measured' : freed.length > 0 ? 'confirmed' : 'refuted',
    evidence: `every worker case returned the right fib(n) through an awaited promise (${free.length} cases); timer p99 < 10 ms in worker mode where sync's was >= 10 ms in ${freed.length} of ${free.length}`,
  });
  return claims;
}
