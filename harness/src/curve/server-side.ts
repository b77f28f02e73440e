/**
 * Where a curve's servers run, behind one small interface so the sweep does not care: here
 * (the default), or on another host over ssh (`bench:curve --server-host`, built by the entry
 * point from remote/). The ladder and the generator are the same either way: the generator
 * always runs on this host.
 */
import type { RuntimeName, ServerKind } from '@bench/app';
import { probeRuntime, runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import { startServer, type RunningServer } from '../servers/server.ts';

export interface ServerSide {
  /** The installation that serves `runtime`, and its exact version there or why it cannot run. */
  installation(runtime: RuntimeName): { spec: RuntimeSpec; probe: { ok: true; version: string } | { ok: false; reason: string } };
  /** Starts (and checks, as the bench does) one server of that installation. */
  start(spec: RuntimeSpec, kind: ServerKind, serverArgs: string[], signal?: AbortSignal): Promise<RunningServer>;
}

export const LOCAL_SERVERS: ServerSide = {
  installation(runtime) {
    const spec = runtimeSpec(runtime);
    return { spec, probe: probeRuntime(spec) };
  },
  start: (spec, kind, serverArgs, signal) =>
    startServer(spec, { raw: kind === 'raw', serverArgs, ...(signal === undefined ? {} : { signal }) }),
};
