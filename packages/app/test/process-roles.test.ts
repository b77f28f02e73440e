// The Bun/Deno entries' shared roles (process-roles.ts), with the runtime's functions faked:
// which start() runs, what it prints, and how a signal or a failed start ends the process.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ListenRole } from '../src/cluster.ts';
import { serveInRole, type ProcessHooks } from '../src/process-roles.ts';
import { parseServerArgs } from '../src/server-args.ts';

const options = () =>
  parseServerArgs(['--port', '0'], { runtime: 'bun', version: '1.0.0', pid: 42, defaultDataDir: '/nonexistent', cpus: 2 });

function hooks(over: Partial<ProcessHooks> = {}) {
  const signals = new Map<string, () => void>();
  const exits: number[] = [];
  const roles: (ListenRole | undefined)[] = [];
  const stopped: string[] = [];
  const h: ProcessHooks = {
    runtime: 'bun',
    pid: 42,
    leaderEnv: undefined,
    supervise: false,
    start: async (_o, role) => {
      roles.push(role);
      return { url: 'http://127.0.0.1:1234', controlUrl: 'http://127.0.0.1:5678', stop: async () => void stopped.push('server') };
    },
    workerCommand: () => {
      throw new Error('not supervising');
    },
    stdin: () => new PassThrough(),
    onSignal: (signal, handler) => void signals.set(signal, handler),
    // The real exit never returns; here it records the code and returns.
    exit: (code) => {
      exits.push(code);
      return undefined as never;
    },
    ...over,
  };
  return { h, signals, exits, roles, stopped };
}

afterEach(() => vi.restoreAllMocks());

describe('serveInRole', () => {
  it('alone: starts without a role, prints the readiness line with its pid, and stops then exits 0 on SIGTERM', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { h, signals, exits, roles, stopped } = hooks();
    await serveInRole(options(), h);
    expect(roles).toEqual([undefined]);
    expect(log).toHaveBeenCalledWith('ready http://127.0.0.1:1234 runtime=bun server=hono pid=42');
    expect([...signals.keys()].sort()).toEqual(['SIGINT', 'SIGTERM']);
    signals.get('SIGTERM')!();
    await vi.waitFor(() => expect(exits).toEqual([0]));
    expect(stopped).toEqual(['server']);
  });

  it('as a serving process (leader set): listens with SO_REUSEPORT and a control port, and goes when its supervisor does (stdin ends)', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const stdin = new PassThrough();
    const { h, exits, roles } = hooks({ leaderEnv: '7', stdin: () => stdin });
    const o = options();
    await serveInRole(o, h);
    expect(roles).toEqual([{ reusePort: true, control: true }]);
    expect(o.app.cluster?.leaderPid).toBe(7);
    stdin.end();
    await vi.waitFor(() => expect(exits).toEqual([0]));
  });

  it('a failed start: one line naming the runtime, exit 1', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { h, exits } = hooks({ start: async () => Promise.reject(new Error('boom')) });
    await serveInRole(options(), h);
    expect(exits).toEqual([1]);
    expect(error.mock.calls[0]?.[0]).toMatch(/^bun server: .*boom/);
  });
});
