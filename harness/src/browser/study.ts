/**
 * The 002 study as a plan: browser x variant x mode x n, one fresh page per case so a page error
 * fails that case only. CPU of the browser's whole process tree is read from /proc around the
 * timed samples, against their wall time.
 */
import { Interrupted } from '../cli/interrupt.ts';
import type { FibVariant } from '../../../packages/app/src/workloads/fib.ts';
import { BROWSERS, type BrowserName, driverVersion, launch, missingReason } from './driver.ts';
import { servePage } from './bundle.ts';
import type { BrowserMode, PageCase, PageResult } from './page/shared.ts';
import { cpuBetween, snapshot } from './proc-tree.ts';

export interface BrowserCaseResult {
  browser: BrowserName;
  variant: FibVariant;
  mode: BrowserMode;
  n: number;
  status: 'ok' | 'failed';
  reason?: string;
  value?: number;
  expected: number;
  callMs?: { median: number; min: number; max: number; samples: number[]; callsPerSample: number };
  timerLateMs?: PageResult['timerLateMs'];
  raf?: PageResult['raf'];
  /** Browser process tree CPU over the timed samples, in cores (CPU ms / wall ms). */
  cpu?: { cpuMs: number; wallMs: number; cores: number; top: { thread: string; cpuMs: number }[] };
}

export interface BrowserSection {
  driver: string;
  browsers: { name: BrowserName; version?: string; status: 'ok' | 'skipped' | 'failed'; reason?: string }[];
  parameters: { ladder: Record<FibVariant, number[]>; busyExponent: number; asyncDepth: 'full'; warmupMs: number; samples: number };
  cases: BrowserCaseResult[];
}

export interface StudyOptions {
  browsers: BrowserName[];
  variants: FibVariant[];
  modes: BrowserMode[];
  ladder: Record<FibVariant, number[]>;
  busyExponent: number;
  warmupMs: number;
  samples: number;
  caseTimeoutMs: number;
  onCase?: (result: BrowserCaseResult) => void;
  /** Aborting it ends the study after the cases finished so far (the one in progress is dropped). */
  signal?: AbortSignal;
}

// memo-late is the source's own asyncMemoFib (stored after the await, never hit): exponential like plain.
export const DEFAULT_LADDER: Record<FibVariant, number[]> = { plain: [18, 22], busy: [14, 18], memo: [300, 1000], 'memo-late': [18, 22] };

/** fib(n) by iteration in doubles: the same additions as the recursion, computed another way. */
export function fibIterative(n: number): number {
  let [a, b] = [0, 1];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

function timeout<T>(ms: number, what: string): Promise<T> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref());
}

/**
 * Rejects once the study is stopped, so a case ends with its killed browser whatever puppeteer
 * is still waiting for: a wait on a dead browser can last puppeteer's 30 s default timeout, and
 * a stop is owed within seconds.
 */
function whenStopped(signal: AbortSignal | undefined): { stopped: Promise<never>; dispose(): void } {
  let stop = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(new Interrupted('interrupted'));
  });
  stopped.catch(() => undefined);
  if (signal?.aborted === true) stop();
  signal?.addEventListener('abort', stop, { once: true });
  return { stopped, dispose: () => signal?.removeEventListener('abort', stop) };
}

export async function runStudy(options: StudyOptions): Promise<BrowserSection> {
  const section: BrowserSection = {
    driver: driverVersion(),
    browsers: [],
    parameters: {
      ladder: options.ladder,
      busyExponent: options.busyExponent,
      asyncDepth: 'full',
      warmupMs: options.warmupMs,
      samples: options.samples,
    },
    cases: [],
  };
  const server = await servePage();
  const stopped = () => options.signal?.aborted === true;
  try {
    for (const name of options.browsers.filter((b) => BROWSERS.includes(b))) {
      if (stopped()) break;
      const missing = missingReason(name);
      if (missing !== undefined) {
        section.browsers.push({ name, status: 'skipped', reason: missing });
        continue;
      }
      let launched;
      try {
        launched = await launch(name);
      } catch (error) {
        section.browsers.push({ name, status: 'failed', reason: `launch: ${(error as Error).message.split('\n')[0]}` });
        continue;
      }
      section.browsers.push({ name, version: launched.version, status: 'ok' });
      try {
        cases: for (const variant of options.variants)
          for (const mode of options.modes)
            for (const n of options.ladder[variant]) {
              if (stopped()) break cases;
              const result = await runCase(
                launched,
                options.signal,
                server.url,
                {
                  variant,
                  mode,
                  n,
                  busyExponent: options.busyExponent,
                  asyncDepth: Number.POSITIVE_INFINITY,
                  warmupMs: options.warmupMs,
                  samples: options.samples,
                },
                name,
                options.caseTimeoutMs,
              );
              // Interrupted meanwhile (its browser killed under it): the case is dropped.
              if (stopped()) break cases;
              section.cases.push(result);
              options.onCase?.(result);
              if (!launched.browser.connected) throw new Error(`${name} disconnected: ${result.reason ?? ''}`);
            }
      } catch (error) {
        const entry = section.browsers.at(-1);
        if (entry !== undefined) Object.assign(entry, { status: 'failed', reason: (error as Error).message });
      } finally {
        await launched.close();
      }
    }
  } finally {
    await server.close();
  }
  return section;
}

async function runCase(
  launched: Awaited<ReturnType<typeof launch>>,
  signal: AbortSignal | undefined,
  url: string,
  spec: PageCase,
  browser: BrowserName,
  caseTimeoutMs: number,
): Promise<BrowserCaseResult> {
  const base = { browser, variant: spec.variant, mode: spec.mode, n: spec.n, expected: fibIterative(spec.n) };
  const { stopped, dispose } = whenStopped(signal);
  const orStop = <T>(step: Promise<T>): Promise<T> => Promise.race([step, stopped]);
  let page;
  try {
    page = await orStop(launched.browser.newPage());
    let pageError: Error | undefined;
    page.on('pageerror', (error) => (pageError ??= error as Error));
    await orStop(page.goto(url));
    await orStop(page.waitForFunction(() => document.title === 'fib-ready', { timeout: 10_000 }));
    const before = snapshot(launched.pid);
    const t0 = performance.now();
    // Infinity does not survive JSON, so the page is told "full" as a huge depth instead.
    const sent = { ...spec, asyncDepth: Number.MAX_SAFE_INTEGER };
    const result = (await Promise.race([
      page.evaluate((s) => (globalThis as unknown as { runCase(s: PageCase): Promise<PageResult> }).runCase(s), sent),
      timeout(caseTimeoutMs, 'case'),
      stopped,
    ])) as PageResult;
    const wallMs = performance.now() - t0;
    const use = cpuBetween(before, snapshot(launched.pid));
    if (pageError !== undefined) throw pageError;
    const ok = result.value === base.expected;
    return {
      ...base,
      status: ok ? 'ok' : 'failed',
      ...(ok ? {} : { reason: `page computed fib(${spec.n}) = ${result.value}, expected ${base.expected}` }),
      value: result.value,
      callMs: {
        median: median(result.perCallMs),
        min: Math.min(...result.perCallMs),
        max: Math.max(...result.perCallMs),
        samples: result.perCallMs,
        callsPerSample: result.callsPerSample,
      },
      timerLateMs: result.timerLateMs,
      raf: result.raf,
      cpu: { cpuMs: use.cpuMs, wallMs, cores: use.cpuMs / wallMs, top: use.top },
    };
  } catch (error) {
    return { ...base, status: 'failed', reason: (error as Error).message.split('\n')[0] ?? 'unknown error' };
  } finally {
    dispose();
    // A killed browser's page went with it: a call to close it could wait on it too.
    if (signal?.aborted !== true) await page?.close().catch(() => undefined);
  }
}
