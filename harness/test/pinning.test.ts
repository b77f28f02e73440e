import { describe, expect, it } from 'vitest';
import { autocannonWorkersFor, clientCpusFor, planPinning } from '../src/system/pinning.ts';

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
