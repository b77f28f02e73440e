import { describe, expect, it } from 'vitest';
import { probeRuntime, resolved } from '../src/servers/runtimes.ts';

describe('a runtime whose package is missing', () => {
  it('is a spec that says why, not an exception, and probes as not runnable with that reason', () => {
    const spec = resolved('deno', () => {
      throw new Error("Cannot find module 'deno/package.json'\nRequire stack: ...");
    });
    expect(spec.unavailable).toBe("deno is not installed here (Cannot find module 'deno/package.json'): run the install step again");
    expect(probeRuntime(spec)).toEqual({ ok: false, reason: spec.unavailable });
  });

  it('leaves an installed runtime as built', () => {
    const spec = resolved('node', () => ({
      name: 'node',
      binary: process.execPath,
      args: () => [],
      versionArgs: ['--version'],
      parseVersion: (o) => o.trim().replace(/^v/, ''),
    }));
    expect(spec.unavailable).toBeUndefined();
    expect(probeRuntime(spec)).toEqual({ ok: true, version: process.versions.node });
  });
});
