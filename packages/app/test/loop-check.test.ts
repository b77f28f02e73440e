import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, generateDataFiles, type BenchApp } from '../src/index.ts';
import { testAppConfig } from './test-config.ts';

let dataDir: string;
let app: BenchApp;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'loop-check-test-'));
  generateDataFiles(dataDir, 2, 1024);
  // The two scenarios these checks call: the catalogue's setup (sqlite's table in every thread) is not needed.
  app = await createApp(testAppConfig(dataDir, { workerPoolSize: 1, scenarios: ['sleep', 'fib'] }));
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function loopCheck(path: string) {
  const res = await app.request(path);
  return { status: res.status, body: (await res.json()) as Record<string, number | string> };
}

describe('GET /loop-check/<name>/<mode>', () => {
  it('a sync call holds the loop: no timer tick runs while the calls are in hand', async () => {
    const { status, body } = await loopCheck('/loop-check/sleep/sync?ms=20');
    expect(status).toBe(200);
    expect(body.mode).toBe('sync');
    expect(body.calls).toBeGreaterThanOrEqual(1);
    expect(body.idleTicks).toBeGreaterThan(0);
    expect(body.ticks).toBe(0);
    expect(body.ticksShare).toBe(0);
  });

  it('a timer-based async wait and a worker call leave the loop free to run its timers', async () => {
    for (const path of ['/loop-check/sleep/async?ms=20', '/loop-check/sleep/worker?ms=20']) {
      const { status, body } = await loopCheck(path);
      expect(status, path).toBe(200);
      expect(body.ticks, path).toBeGreaterThan(0);
      // Far from the sync call's 0 even on a busy machine, where the ticks come late.
      expect(body.ticksShare, path).toBeGreaterThan(0.3);
    }
  });

  it('async functions that never wait stay on the loop (fib async)', async () => {
    const { body } = await loopCheck('/loop-check/fib/async?n=20');
    expect(body.ticksShare).toBeLessThan(0.1);
  });

  it('takes the scenario query with its bounds, and is not counted as load in /stats', async () => {
    const bad = await loopCheck('/loop-check/sleep/async?ms=999999');
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toMatch(/ms must be/);
    await app.request('/reset', { method: 'POST' });
    await app.request('/loop-check/sleep/sync?ms=1');
    const stats = (await (await app.request('/stats')).json()) as { routes: Record<string, unknown> };
    expect(Object.keys(stats.routes)).toEqual([]);
  });
});
