import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { machineCpus } from '../src/system/environment.ts';
import { tasksetAvailable } from '../src/system/pinning.ts';

const module = fileURLToPath(new URL('../src/system/environment.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

describe('machineCpus', () => {
  it('counts the online CPUs, which can only exceed what this process may use', () => {
    const cpus = machineCpus();
    expect(cpus.count).toBe(os.cpus().length);
    expect(cpus.available).toBe(os.availableParallelism());
    expect(cpus.count).toBeGreaterThanOrEqual(cpus.available);
  });

  it.skipIf(!tasksetAvailable() || os.cpus().length < 2)('records the machine, not the affinity, in a process pinned to one CPU', () => {
    const script = `import(${JSON.stringify(module)}).then((m) => console.log(JSON.stringify(m.machineCpus())))`;
    const out = execFileSync('taskset', ['-c', '0', tsx, '-e', script], { encoding: 'utf8' });
    const pinned = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { count: number; available: number };
    expect(pinned.available).toBe(1);
    expect(pinned.count).toBe(os.cpus().length);
  });
});
