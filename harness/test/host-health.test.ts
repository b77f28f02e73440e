/**
 * The one statement about the host at the top of a report: the independent check decides, the
 * sampler's warning stands in only without one, and the cells that shared the host are named.
 */
import { describe, expect, it } from 'vitest';
import type { Environment } from '../src/model/environment.ts';
import { hostHealth } from '../src/report/text/host-health.ts';
import { environment } from './fixtures.ts';

const before = { at: '2026-11-25T17:00:00Z', alone: [2.151, 2.153], together: [2.136, 2.139] };
const after = { at: '2026-11-25T17:06:00Z', alone: [2.156, 2.151], together: [2.154, 2.153] };
const held = { n: 28, calls: 20, before, after, floor: 0, threshold: 0.05, change: -0.0039, moved: false };
// The sampler saw a run of one cell 14.7 % off its others, beyond its floor: on a host the check calls steady.
const scattered: Environment['machineSpeed'] = {
  vcpus: 2,
  pinned: true,
  intervalMs: 250,
  coresWorth: { min: 1.0, max: 2.0 },
  overheadPercent: 0.9,
  samples: 900,
  moved: { beyondFloor: true, worst: { cell: 'deno sleep/sync', deviation: 0.147, floor: 0.05 } },
};
const env: Environment = {
  ...environment,
  hostCheck: held,
  machineSpeed: scattered,
  referenceLoop: { unit: 'fib(25)', minMs: 0.691, maxMs: 1.381, medianMs: 0.7, rounds: 12 },
};
const cell = (scenario: string, shared: boolean) => ({
  runtime: 'node' as const,
  scenario,
  mode: 'async' as const,
  flags: shared ? ['shared-host' as const] : [],
});

describe('the host health statement', () => {
  it('says the host held, with the check, and nothing about the machine moving, when the independent check held', () => {
    const health = hostHealth(env, [cell('hash', false)]);
    expect(health?.warn).toBe(false);
    expect(health?.text).toBe(
      "✓ The host held: independent check −0.4 % between this run's start and end (within ±5.0 %; the check's own floor ±0.0 %) (fib(28) per CPU, 2.151/2.153 ms alone, 2.136/2.139 together before, 2.156/2.151 ms alone, 2.154/2.153 together after). No cell shared the host with other processes.",
    );
    expect(health?.text).not.toMatch(/speed moved|reference loop/);
  });

  it('names the cells that shared the host beside a steady check, and warns', () => {
    const health = hostHealth(env, [cell('hash', true), cell('file', false)], true);
    expect(health).toEqual({
      text: '✓ The host held: independent check −0.4 % between this run\'s start and end (within ±5.0 %; the check\'s own floor ±0.0 %). ⚠ Other processes used the CPU during runs of 1 of 2 cells (node hash/async): their ratios read "could not tell", and `bench:compare` does not judge them.',
      warn: true,
    });
  });

  it("does not call a host steady when the check's own floor is too wide to tell", () => {
    const noisy = hostHealth({ ...env, hostCheck: { ...held, floor: 0.399, threshold: 1.197, change: -0.242 } }, [], true);
    expect(noisy?.warn).toBe(true);
    expect(noisy?.text).toMatch(/^⚠ Whether the host held is not known: the independent check read −24\.2 % .*cannot tell/);
    expect(noisy?.text).not.toMatch(/✓/);
  });

  it('warns when the check moved, and lets the sampler speak only where no complete check ran', () => {
    expect(hostHealth({ ...env, hostCheck: { ...held, change: -0.4, moved: true } }, [], true)?.text).toMatch(
      /^⚠ The host's speed moved: independent check −40\.0 % between this run's start and end \(beyond ±5\.0 %/,
    );
    const { hostCheck: _none, ...withoutCheck } = env;
    expect(hostHealth(withoutCheck, [])).toMatchObject({
      warn: true,
      text: expect.stringMatching(/^⚠ The machine's speed moved during this run/),
    });
    const startOnly = hostHealth({ ...env, hostCheck: { n: 28, calls: 20, before, floor: 0, threshold: 0.05 } }, []);
    expect(startOnly?.text).toMatch(/^The host check read the start only.*not known\. ⚠ The machine's speed moved/);
  });
});
