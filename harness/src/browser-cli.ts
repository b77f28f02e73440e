/**
 * `pnpm bench:browser`: the Fibonacci study of seed 002 in headless Chromium and Firefox ESR.
 * Writes data/results/<time>-browser/report.{json,md,html}. On SIGINT/SIGTERM the browsers'
 * process groups are killed and what was measured so far is kept.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { typedPath } from './cli/flags.ts';
import { FIB_VARIANTS, type FibVariant } from '../../packages/app/src/workloads/fib.ts';
import { BROWSERS, type BrowserName, killAll } from './browser/driver.ts';
import { BROWSER_MODES, type BrowserMode } from './browser/page/shared.ts';
import { renderBrowserHtml } from './browser/render-html.ts';
import { renderBrowserMarkdown } from './browser/render-md.ts';
import { DEFAULT_LADDER, runStudy, type BrowserCaseResult } from './browser/study.ts';
import { makeRunDir, writeFileAtomic, writeJsonAtomic } from './report/output.ts';
import { siteLines } from './site-kinds.ts';
import { environment } from './system/environment.ts';
import { REPO_ROOT } from './system/paths.ts';

function fail(message: string): never {
  console.error(`bench:browser: ${message}`);
  process.exit(2);
}

function list<T extends string>(raw: string, allowed: readonly T[], what: string): T[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) if (!allowed.includes(item as T)) fail(`unknown ${what} "${item}" (expected ${allowed.join(', ')})`);
  return items as T[];
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      browsers: { type: 'string', default: BROWSERS.join(',') },
      variants: { type: 'string', default: FIB_VARIANTS.join(',') },
      modes: { type: 'string', default: BROWSER_MODES.join(',') },
      n: { type: 'string' },
      samples: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '300' },
      'busy-exponent': { type: 'string', default: '6' },
      out: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
const int = (name: string, raw: string, min: number, max: number) => {
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) fail(`--${name} must be an integer in ${min}..${max}, got "${raw}"`);
  return v;
};
const variants = list<FibVariant>(values.variants, FIB_VARIANTS, 'variant');
const ladder = { ...DEFAULT_LADDER };
if (values.n !== undefined) {
  const ns = values.n.split(',').map((s) => int('n', s, 0, 1476));
  for (const v of variants) ladder[v] = ns;
}
if (values.quick) for (const v of FIB_VARIANTS) ladder[v] = ladder[v].slice(0, 1);
const browsers = list<BrowserName>(values.browsers, BROWSERS, 'browser');
const modes = list<BrowserMode>(values.modes, BROWSER_MODES, 'mode');
const samples = int('samples', values.samples, 1, 1000);
const warmupMs = int('warmup', values.warmup, 0, 60_000);
const busyExponent = int('busy-exponent', values['busy-exponent'], 0, 9);

// pnpm runs the script in harness/: a relative --out is taken from where the user typed it.
const dir = values.out !== undefined ? typedPath(values.out) : makeRunDir(join(REPO_ROOT, 'data/results'), new Date(), 'browser-');
const createdAt = new Date().toISOString();
const env = environment();
const done: BrowserCaseResult[] = [];
const write = (status: 'complete' | 'interrupted', section: Parameters<typeof renderBrowserMarkdown>[0]) => {
  // kind (added): lets the results site and bench:report tell this report from the others.
  writeJsonAtomic(join(dir, 'report.json'), { kind: 'browser', schemaVersion: 1, createdAt, status, environment: env, browser: section });
  writeFileAtomic(join(dir, 'report.md'), `# Browser study (${status}, ${createdAt})\n\n${renderBrowserMarkdown(section)}`);
  writeFileAtomic(join(dir, 'report.html'), renderBrowserHtml(section));
};

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    write('interrupted', {
      driver: '',
      browsers: [],
      parameters: { ladder, busyExponent, asyncDepth: 'full', warmupMs, samples },
      cases: done,
    });
    console.error(`bench:browser: ${signal}, browsers killed, partial results in ${dir}`);
    process.exit(130);
  });
}

const section = await runStudy({
  browsers,
  variants,
  modes,
  ladder,
  busyExponent,
  warmupMs,
  samples,
  caseTimeoutMs: 120_000,
  onCase: (c) => {
    done.push(c);
    console.log(
      `${c.browser} ${c.variant} ${c.mode} n=${c.n}: ${c.status === 'ok' ? `${c.callMs?.median.toFixed(3)} ms/call, timer p99 ${c.timerLateMs?.p99.toFixed(1)} ms, ${c.cpu?.cores.toFixed(2)} cores` : `FAILED ${c.reason}`}`,
    );
  },
});
write('complete', section);
for (const b of section.browsers) if (b.status !== 'ok') console.log(`${b.name}: ${b.status} (${b.reason})`);
console.log(`report: ${dir}/report.html\n        ${dir}/report.md`);
console.log(siteLines(dir));
