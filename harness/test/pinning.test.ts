import { describe, expect, it } from 'vitest';
import { autocannonWorkersFor, clientCpusFor, planPinning } from '../src/system/pinning.ts';

describe('planPinning with --server-cpus', () => {
  it('puts the servers on the last N CPUs and the load generator below them, or beside them on all', () => {
    expect(planPinning(2, true, undefined, 1)).toEqual({ client: '0', server: '1', clientCpus: 1, serverCpus: 1, autocannonWorkers: 0 });
    expect(planPinning(2, true, undefined, 2)).toEqual({
      client: '0-1',
      server: '0-1',
      clientCpus: 2,
      serverCpus: 2,
      autocannonWorkers: 0,
    });
    expect(planPinning(16, true, undefined, 4)).toEqual({
      client: '0-11',
      server: '12-15',
      clientCpus: 12,
      serverCpus: 4,
      autocannonWorkers: 12,
    });
    expect(planPinning(2, false, undefined, 1)).toEqual({ reason: '--server-cpus 1 asked, but taskset is not installed' });
  });
});

describe('planPinning', () => {
  it('gives the load generator a quarter of the CPUs (at least one) and the server the rest', () => {
    expect(planPinning(4, true)).toEqual({ client: '0', server: '1-3', clientCpus: 1, serverCpus: 3, autocannonWorkers: 0 });
    expect(planPinning(16, true)).toEqual({ client: '0-3', server: '4-15', clientCpus: 4, serverCpus: 12, autocannonWorkers: 4 });
    expect(planPinning(64, true)).toEqual({ client: '0-15', server: '16-63', clientCpus: 16, serverCpus: 48, autocannonWorkers: 16 });
  });

  it('never leaves the load generator one CPU of sixteen', () => {
    expect(clientCpusFor(16)).toBeGreaterThan(1);
    expect([2, 4, 16, 64].map((n) => clientCpusFor(n))).toEqual([1, 1, 4, 16]);
  });

  it('takes --client-cpus as given, with as many autocannon workers', () => {
    expect(planPinning(16, true, 6)).toEqual({ client: '0-5', server: '6-15', clientCpus: 6, serverCpus: 10, autocannonWorkers: 6 });
    expect(planPinning(4, true, 3)).toEqual({ client: '0-2', server: '3', clientCpus: 3, serverCpus: 1, autocannonWorkers: 3 });
    expect(planPinning(16, true, 16)).toEqual({ reason: expect.stringMatching(/leaves none for the server/) });
    expect([1, 2, 12].map(autocannonWorkersFor)).toEqual([0, 2, 12]);
  });

  it('does not pin on 2 CPUs, and says why', () => {
    expect(planPinning(2, true)).toEqual({ reason: expect.stringMatching(/^2 CPUs: pinning would leave the server one core/) });
    expect(planPinning(2, true, 1)).toEqual({ reason: expect.stringMatching(/^2 CPUs/) });
  });

  it('does not pin without taskset', () => {
    expect(planPinning(8, false)).toEqual({ reason: expect.stringMatching(/taskset is not installed/) });
  });
});

describe('--server-cpus on the command line', () => {
  it('takes N within this host’s CPUs, and refuses more, or servers on another host, with one line', async () => {
    const { parsePlan } = await import('../src/bench/plan.ts');
    const { availableParallelism } = await import('node:os');
    expect(parsePlan(['--server-cpus', '1']).serverCpus).toBe(1);
    expect(() => parsePlan(['--server-cpus', String(availableParallelism() + 1)])).toThrow(/this host has \d+ CPUs/);
    expect(() => parsePlan(['--server-cpus', '1', '--server-host', 'me@elsewhere'])).toThrow(/with --server-host, pin them there/);
  });
});
