import { describe, expect, it } from 'vitest';
import { createPhaseClock, phaseKind } from '../src/bench/phase-clock.ts';
import { timingText } from '../src/report/text/labels.ts';

describe('phase clock', () => {
  it('charges each moment to the phase announced last, so the buckets add up to the wall time', () => {
    let t = 1_000;
    const clock = createPhaseClock(() => t);
    t += 4_000; // data files, fingerprint
    clock.enter(phaseKind('check'));
    t += 200;
    clock.enter(phaseKind('warm-up'));
    t += 900;
    clock.enter(phaseKind('run 1/2'));
    t += 600;
    clock.enter(phaseKind('run 2/2'));
    t += 650;
    clock.enter(phaseKind('cross-check (wrk)'));
    t += 1_100;
    clock.enter('other');
    t += 50;
    const timing = clock.read();
    expect(timing.phasesSec).toEqual({ setup: 4, check: 0.2, 'warm-up': 0.9, run: 1.3, 'cross-check': 1.1, other: 0.1 });
    expect(timing.wallSec).toBe(7.5);
  });

  it('names the phases by their first word and reads them as a line', () => {
    expect(phaseKind('restart')).toBe('restart');
    expect(phaseKind('something new')).toBe('other');
    expect(timingText({ wallSec: 58.26, phasesSec: { run: 30.1, 'warm-up': 12, setup: 4 } })).toBe(
      '58.3 s: runs 30.1 s, warm-ups 12.0 s, setup 4.0 s',
    );
  });
});
