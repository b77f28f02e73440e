/**
 * Servers on another host over ssh, when something stops: the harness (SIGINT, SIGKILL), the
 * network, a server or one member of a group. Nothing may be left running on either host. The
 * other host is built on this machine as in remote.test.ts (two-hosts.ts); needs root and ip netns.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untilNone } from './helpers.ts';
import type { Report } from '../../src/model/report.ts';
import { HEARTBEAT_TIMEOUT_SEC } from '../../src/remote/remote-server.ts';
import {
  benchArgs,
  benchAtCell,
  exitOf,
  GROUP,
  localSshGone,
  oursThere,
  serverNsEmpty,
  servingGroupThere,
  startLongBench,
  hosts,
  unavailable,
  withTwoHosts,
} from './remote-there.ts';

// Each test's limit: the start (START_WITHIN_MS), the group's count, the stop and what must end.
describe.skipIf(unavailable !== undefined)('servers on another host, over ssh: when something stops', { timeout: 110_000 }, () => {
  withTwoHosts();

  it('SIGINT: the harness stops, the remote servers (a group of 2) end with it', async () => {
    const child = await startLongBench(GROUP);
    expect(await servingGroupThere(2)).toHaveLength(2);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(130);
    expect(await serverNsEmpty(5_000)).toEqual([]);
    expect(await localSshGone(3_000)).toEqual([]);
  });

  it('SIGKILL: the remote side (a group of 2) dies with its ssh channel, no kill sent by the harness', async () => {
    const child = await startLongBench(GROUP);
    expect(await servingGroupThere(2)).toHaveLength(2);
    child.kill('SIGKILL');
    await exitOf(child);
    // The channel's EOF reaches the wrapper at once; 10 s would be its heartbeat watchdog.
    expect(await serverNsEmpty(8_000)).toEqual([]);
    // The harness's ssh clients, orphaned by the kill, end once the remote side has.
    expect(await localSshGone(3_000)).toEqual([]);
  });

  it('network drop: with no heartbeat through the channel, the remote side (a group of 2) ends by itself', async () => {
    const child = await startLongBench(GROUP);
    expect(await servingGroupThere(2)).toHaveLength(2);
    const link = (state: 'up' | 'down') => spawnSync('ip', ['-n', hosts().serverNs, 'link', 'set', hosts().serverDev, state]);
    try {
      expect(link('down').status).toBe(0);
      const dropped = Date.now();
      expect(await untilNone(() => oursThere(), (HEARTBEAT_TIMEOUT_SEC + 6) * 1000, 200)).toEqual([]);
      // Not before the watchdog's timeout: nothing else told it.
      expect(Date.now() - dropped).toBeGreaterThan((HEARTBEAT_TIMEOUT_SEC - 3) * 1000);
    } finally {
      link('up');
      child.kill('SIGKILL');
      await exitOf(child);
    }
  }, 120_000);

  it('a remote server that stops is found hung from the progress samples its wrapper sends', async () => {
    const args = benchArgs([
      '--runtimes',
      'node',
      '--scenarios',
      'sleep',
      '--modes',
      'sync',
      '--quick',
      '--runs',
      '1',
      '--duration',
      '3',
      '--warmup',
      '0',
      '--timeout',
      '1',
    ]);
    const { child, log } = await benchAtCell(args, 'sleep/sync');
    // The server itself, not its wrapper (whose command line holds the server's argv too).
    const [server] = oursThere(/runtimes\/node\/server\.ts/).filter(
      (pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bench-remote'),
    );
    expect(server).toBeDefined();
    process.kill(server ?? 0, 'SIGSTOP');
    // 1: the only cell failed, nothing was measured.
    expect(await exitOf(child), log()).toBe(1);
    const report = JSON.parse(readFileSync(join(args[args.indexOf('--out') + 1] ?? '', 'report.json'), 'utf8')) as Report;
    expect(report.results[0]?.status).toBe('failed');
    expect(report.results[0]?.reason).toMatch(/server hung: stopped \(process state T\)/);
    expect(await serverNsEmpty(5_000)).toEqual([]);
  });

  it('a killed member of a remote group of 2 fails its cell, and nothing is left on either host', async () => {
    let args: string[] = [];
    const child = await startLongBench(GROUP, (a) => (args = a));
    const [member] = await servingGroupThere(2);
    expect(member).toBeDefined();
    process.kill(member ?? 0, 'SIGKILL');
    expect(await exitOf(child)).toBe(1);
    const report = JSON.parse(readFileSync(join(args[args.indexOf('--out') + 1] ?? '', 'report.json'), 'utf8')) as Report;
    expect(report.results[0]).toMatchObject({ status: 'failed', processes: 2 });
    expect(report.results[0]?.reason).toMatch(/server died|serving process/);
    expect(await serverNsEmpty(5_000)).toEqual([]);
    expect(await localSshGone(3_000)).toEqual([]);
  });
});
