import { afterAll, describe, expect, it } from 'vitest';
import { PreciseWake } from '../src/load/precise-wake.ts';

const wakes: number[] = [];
const wake = new PreciseWake(() => wakes.push(performance.now()));
afterAll(async () => {
  await wake.close();
});

describe('PreciseWake', () => {
  it('wakes this thread once, not before the time asked; a later ask replaces an earlier one', async () => {
    wakes.length = 0;
    const start = performance.now();
    wake.at(start + 200);
    wake.at(start + 20);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(wakes).toHaveLength(1);
    expect((wakes[0] ?? 0) - start).toBeGreaterThanOrEqual(20);
  });

  it('a cancelled wake-up never comes, and a time already past wakes at once', async () => {
    wakes.length = 0;
    wake.at(performance.now() + 30);
    wake.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(wakes).toHaveLength(0);
    wake.at(performance.now() - 5);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(wakes).toHaveLength(1);
  });
});
