/**
 * quietThreads on this process: quiet once its threads stop using CPU, not quiet while one spins.
 * Both read CPU against the clock (at most 10 ms in a 25 ms poll), which a core shared with other
 * files' work could move either way, so this file runs in the serial group (vitest.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { quietThreads } from '../src/bench/cpu-window.ts';

describe('quietThreads', () => {
  it('returns a snapshot of a process once its threads stop using CPU', async () => {
    if (process.platform !== 'linux') return;
    const idle = await quietThreads(process.pid, 10_000);
    expect(idle?.quiet).toBe(true);
    expect(idle?.snapshot.threads.has(process.pid)).toBe(true);
    // Busy past the cap: the last snapshot, not called quiet.
    const spin = setInterval(() => {
      const until = performance.now() + 20;
      while (performance.now() < until);
    }, 1);
    try {
      expect((await quietThreads(process.pid, 300))?.quiet).toBe(false);
    } finally {
      clearInterval(spin);
    }
    expect(await quietThreads(2 ** 22 + 17, 100)).toBeUndefined();
  });
});
