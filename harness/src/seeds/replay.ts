import type { RuntimeName } from '@bench/app';
import { probeRuntime, runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import { startServer, type RunningServer } from '../servers/server.ts';
import type { ClaimId } from './claims.ts';

import { FIB, FIB_PATHS, type Measured, type ReplayContext } from './replay-shape.ts';
import { replay000, replay001, replay002, replay003 } from './sources.ts';

type Step = {
  claim: ClaimId;
  needsAb: boolean;
  server: 'main' | 'static';
  run(server: RunningServer, ctx: ReplayContext): Promise<Partial<Measured>>;
};

const STEPS: Step[] = [
  { claim: '000-bcrypt', needsAb: true, server: 'main', run: replay000 },
  { claim: '001-file-warm', needsAb: false, server: 'main', run: (s, c) => replay001(s, c, false) },
  { claim: '001-file-cold', needsAb: false, server: 'main', run: (s, c) => replay001(s, c, true) },
  {
    claim: '002-async-fib',
    needsAb: false,
    server: 'main',
    run: (s, c) =>
      replay002(
        s,
        c,
        FIB_PATHS.plainAsync,
        FIB_PATHS.plainSync,
        ['async', 'sync'],
        `fib(${FIB.plainN}), async all the way down (depth ${FIB.allTheWay}) vs sync`,
      ),
  },
  {
    claim: '002-busy-fib',
    needsAb: false,
    server: 'main',
    run: (s, c) =>
      replay002(
        s,
        c,
        FIB_PATHS.busyAsync,
        FIB_PATHS.busySync,
        ['async', 'sync'],
        `busy fib(${FIB.busyN}) with a ${FIB.busyN} ** ${FIB.busyExp} loop, async all the way down vs sync`,
      ),
  },
  {
    claim: '002-memo-fib',
    needsAb: false,
    server: 'main',
    run: (s, c) =>
      replay002(
        s,
        c,
        FIB_PATHS.memoLateAsync,
        FIB_PATHS.plainAsync,
        ['async memo', 'async plain'],
        `fib(${FIB.plainN}) async memoised as the source wrote it (variant memo-late) vs async all the way down`,
      ),
  },
  { claim: '003-static', needsAb: true, server: 'static', run: replay003 },
];

/**
 * The scenario modules each server's claims ask for (/reset and /stats are the app's own): the
 * other modules' setup (sqlite's tables, in the process and in each worker) is start-up time that
 * no claim reads, as the bench sets up only the modules it plans.
 */
const SERVED: Record<Step['server'], string> = { main: 'hash,file,fib', static: 'file' };

const base = (claim: ClaimId, runtime: RuntimeName): Measured => ({
  claim,
  runtime,
  status: 'ok',
  replayedSetup: '',
  unit: '',
  over: [],
  base: [],
  overLabel: 'async',
  baseLabel: 'sync',
  detail: {},
});

/** Every claim on one runtime; a claim that fails is recorded as failed and the next one runs. */
export async function replayRuntime(
  runtime: RuntimeName,
  ctx: ReplayContext,
): Promise<{ version: string | undefined; rows: Measured[]; reason?: string }> {
  const spec: RuntimeSpec = runtimeSpec(runtime);
  const probed = probeRuntime(spec);
  if (!probed.ok)
    return {
      version: undefined,
      reason: probed.reason,
      rows: STEPS.filter((s) => ctx.claims.includes(s.claim)).map((s) => ({
        ...base(s.claim, runtime),
        status: 'skipped',
        reason: probed.reason,
      })),
    };
  const servers: Partial<Record<'main' | 'static', RunningServer>> = {};
  const rows: Measured[] = [];
  try {
    for (const step of STEPS.filter((s) => ctx.claims.includes(s.claim))) {
      const row = base(step.claim, runtime);
      if (ctx.signal.aborted) break;
      if (step.needsAb && ctx.abMissing !== undefined) {
        rows.push({ ...row, status: 'skipped', reason: ctx.abMissing });
        continue;
      }
      ctx.progress(`${runtime}: ${step.claim}`);
      try {
        servers[step.server] ??= await startServer(spec, {
          raw: false,
          serverArgs: [
            ...['--data-dir', step.server === 'main' ? ctx.dataDir : ctx.staticDir, '--hash-cost', '10'],
            ...['--scenarios', SERVED[step.server]],
          ],
          signal: ctx.signal,
        });
        rows.push({ ...row, ...(await step.run(servers[step.server] as RunningServer, ctx)) });
      } catch (error) {
        // Interrupted: the step in progress is dropped, the finished ones kept.
        if (ctx.signal.aborted) break;
        const server = servers[step.server];
        const died = server !== undefined && !server.alive ? ` (server died: ${server.stderrTail(2)})` : '';
        rows.push({ ...row, status: 'failed', reason: `${(error as Error).message}${died}` });
        if (server !== undefined && !server.alive) delete servers[step.server];
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
  return { version: probed.version, rows };
}
