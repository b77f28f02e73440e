/**
 * `pnpm bench:browser`: the Fibonacci study of seed 002 in headless Chromium and Firefox ESR.
 * Writes data/results/<time>-browser/report.{json,md,html}. On SIGINT/SIGTERM the browsers'
 * process groups are killed and what was measured so far is kept.
 */
import { join } from 'node:path';
import { nameList, numberFlag, parseFlags, typedPath } from './cli/flags.ts';
import { type CommandContext, runCommand } from './cli/command.ts';
import { FIB_VARIANTS } from '../../packages/app/src/workloads/fib.ts';
import { BROWSERS, killAll } from './browser/driver.ts';
import { BROWSER_MODES } from './browser/page/shared.ts';
import { renderBrowserHtml } from './browser/render-html.ts';
import { renderBrowserMarkdown } from './browser/render-md.ts';
import { DEFAULT_LADDER, runStudy } from './browser/study.ts';
import { makeRunDir, writeFileAtomic, writeJsonAtomic } from './model/run-files.ts';
import { siteLines } from './site-kinds.ts';
import { environment } from './system/environment.ts';
import { RESULTS_ROOT } from './system/paths.ts';

async function main({ signal }: CommandContext): Promise<number> {
  const values = parseFlags(
    process.argv.slice(2),
    ['browsers', 'variants', 'modes', 'n', 'samples', 'warmup', 'busy-exponent', 'out'],
    ['quick'],
  );
  const str = (k: string) => values[k] as string | undefined;
  const variants = nameList('variants', str('variants'), FIB_VARIANTS) ?? [...FIB_VARIANTS];
  const ladder = { ...DEFAULT_LADDER };
  const n = str('n');
  if (n !== undefined) {
    const ns = n.split(',').map((s) => numberFlag('n', s.trim(), 0, 1476, true) ?? 0);
    for (const v of variants) ladder[v] = ns;
  }
  if (values.quick === true) for (const v of FIB_VARIANTS) ladder[v] = ladder[v].slice(0, 1);
  const browsers = nameList('browsers', str('browsers'), BROWSERS) ?? [...BROWSERS];
  const modes = nameList('modes', str('modes'), BROWSER_MODES) ?? [...BROWSER_MODES];
  const samples = numberFlag('samples', str('samples'), 1, 1000, true) ?? 5;
  const warmupMs = numberFlag('warmup', str('warmup'), 0, 60_000, true) ?? 300;
  const busyExponent = numberFlag('busy-exponent', str('busy-exponent'), 0, 9, true) ?? 6;

  // pnpm runs the script in harness/: a relative --out is taken from where the user typed it.
  const out = str('out');
  const dir = out !== undefined ? typedPath(out) : makeRunDir(RESULTS_ROOT, new Date(), 'browser-');
  const createdAt = new Date().toISOString();
  const env = environment();
  // A case can run for minutes: its browser is killed at once, the cases finished are kept.
  signal.addEventListener('abort', killAll, { once: true });
  const section = await runStudy({
    browsers,
    variants,
    modes,
    ladder,
    busyExponent,
    warmupMs,
    samples,
    caseTimeoutMs: 120_000,
    signal,
    onCase: (c) => {
      console.log(
        `${c.browser} ${c.variant} ${c.mode} n=${c.n}: ${c.status === 'ok' ? `${c.callMs?.median.toFixed(3)} ms/call, timer p99 ${c.timerLateMs?.p99.toFixed(1)} ms, ${c.cpu?.cores.toFixed(2)} cores` : `FAILED ${c.reason}`}`,
      );
    },
  });
  const status = signal.aborted ? 'interrupted' : 'complete';
  // kind (added): lets the results site and bench:report tell this report from the others.
  writeJsonAtomic(join(dir, 'report.json'), { kind: 'browser', schemaVersion: 1, createdAt, status, environment: env, browser: section });
  writeFileAtomic(join(dir, 'report.md'), `# Browser study (${status}, ${createdAt})\n\n${renderBrowserMarkdown(section)}`);
  writeFileAtomic(join(dir, 'report.html'), renderBrowserHtml(section));
  for (const b of section.browsers) if (b.status !== 'ok') console.log(`${b.name}: ${b.status} (${b.reason})`);
  console.log(`report: ${dir}/report.html\n        ${dir}/report.md`);
  console.log(siteLines(dir));
  return 0;
}

runCommand('bench:browser', main, { interruptible: true, onForce: killAll });
