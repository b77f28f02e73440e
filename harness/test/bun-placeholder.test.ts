// npm 11 runs only the install scripts a project approved: the bun package's script, which puts
// the platform package's binary in place of a 450-byte placeholder, may not have run. The spec
// then runs the platform package's binary where npm put it; a placed binary is used as it is.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bunSpec } from '../src/servers/runtimes.ts';

const tmp = mkdtempSync(join(tmpdir(), 'bun-placeholder-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** runtimes/bun beside node_modules/bun (its bin/bun.exe as given) and node_modules/@oven/bun-linux-x64. */
function installation(binExe: string | Buffer): string {
  const root = mkdtempSync(join(tmp, 'i-'));
  write(join(root, 'runtimes/bun/package.json'), '{ "name": "@bench/runtime-bun" }');
  write(join(root, 'node_modules/bun/package.json'), '{ "name": "bun", "version": "1.4.5" }');
  write(join(root, 'node_modules/bun/bin/bun.exe'), binExe);
  write(join(root, 'node_modules/@oven/bun-linux-x64/package.json'), '{ "name": "@oven/bun-linux-x64", "version": "1.4.5" }');
  write(join(root, 'node_modules/@oven/bun-linux-x64/bin/bun'), 'elf');
  return root;
}

describe.runIf(process.platform === 'linux' && process.arch === 'x64')('bun, installed without its install script', () => {
  it("runs the platform package's binary in place of the placeholder", () => {
    const root = installation(`echo "Error: Bun's postinstall script was not run." >&2\n`);
    const spec = bunSpec(join(root, 'runtimes'));
    expect(spec.binary).toBe(join(root, 'node_modules/@oven/bun-linux-x64/bin/bun'));
    expect(spec.source).toBe('@oven/bun-linux-x64@1.4.5');
  });

  it('runs the binary the install script placed', () => {
    const root = installation(Buffer.alloc((1 << 20) + 1));
    const spec = bunSpec(join(root, 'runtimes'));
    expect(spec.binary).toBe(join(root, 'node_modules/bun/bin/bun.exe'));
    expect(spec.source).toBe('bun@1.4.5');
  });
});
