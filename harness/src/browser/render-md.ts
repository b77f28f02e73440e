/** The browser section of the report as Markdown: versions, one table of cases, the claims. */
import { markdownTable } from 'markdown-table';
import { checkClaims } from './claims.ts';
import type { BrowserSection } from './study.ts';

const f = (x: number | undefined, digits = 2) => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(digits));

export function renderBrowserMarkdown(section: BrowserSection): string {
  const lines = ['## Browser: the Fibonacci study of seed 002', ''];
  lines.push(
    `Driver: ${section.driver}. ` +
      section.browsers.map((b) => `${b.name}: ${b.version ?? b.status}${b.reason ? ` (${b.reason})` : ''}`).join('; ') +
      '.',
  );
  const p = section.parameters;
  lines.push(
    '',
    `The app's own fib workload (packages/app) bundled by esbuild; async = fully async (Promise.all at every level); busy spins n^${p.busyExponent} once, as the server's busy variant does; warm-up ${p.warmupMs} ms, ${p.samples} samples per case. Timer = lateness of a 10 ms setTimeout chain on the page's main thread; rAF = frames missed against 60 Hz and the longest gap (headless: rAF still paced by the browser's frame clock). CPU = browser process tree (all processes, all threads, /proc) over the case's wall time, in cores.`,
    '',
  );
  const rows = section.cases.map((c) => [
    c.browser,
    c.variant,
    c.mode,
    String(c.n),
    c.status === 'ok' ? f(c.callMs?.median, 3) : `failed: ${c.reason ?? ''}`,
    c.callMs ? `${f(c.callMs.min, 3)}–${f(c.callMs.max, 3)}` : '-',
    f(c.timerLateMs?.p99, 1),
    f(c.timerLateMs?.max, 1),
    c.raf ? `${c.raf.missed}/${c.raf.expected} (${f(c.raf.maxGapMs, 0)} ms)` : '-',
    f(c.cpu?.cores),
    c.cpu?.top[0] ? `${c.cpu.top[0].thread} ${f(c.cpu.top[0].cpuMs, 0)} ms` : '-',
  ]);
  lines.push(
    markdownTable(
      [
        [
          'browser',
          'variant',
          'mode',
          'n',
          'ms/call (median)',
          'range',
          'timer late p99',
          'late max',
          'rAF missed (max gap)',
          'CPU cores',
          'busiest thread',
        ],
        ...rows,
      ],
      { align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'] },
    ),
  );
  lines.push('', "### The source's claims", '');
  lines.push(markdownTable([['claim', 'verdict', 'evidence'], ...checkClaims(section).map((c) => [c.claim, c.verdict, c.evidence])]));
  return `${lines.join('\n')}\n`;
}
