// Deno strips the types of no file under node_modules: an installed tool's Deno server runs from
// a copy of its sources made once in the user's cache, linked to the dependencies the
// installation resolved. A checkout runs as it is.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverRoot } from '../../runtimes/deno/server-copy.ts';

const tmp = mkdtempSync(join(tmpdir(), 'deno-copy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** An installed package at project/node_modules/tool with the app's one dependency hoisted beside it. */
function installation(): { project: string; root: string } {
  const project = mkdtempSync(join(tmp, 'project-'));
  const root = join(project, 'node_modules/tool');
  write(join(root, 'package.json'), '{ "name": "tool", "version": "1.2.3" }');
  write(join(root, 'packages/app/package.json'), '{ "name": "@bench/app", "dependencies": { "hono": "4" } }');
  write(join(root, 'packages/app/src/index.ts'), 'export const app: string = "app";\n');
  write(join(root, 'runtimes/deno/server.ts'), 'import "@bench/app";\n');
  write(join(root, 'runtimes/deno/test/probe.ts'), 'left out\n');
  write(join(project, 'node_modules/hono/package.json'), '{ "name": "hono" }');
  return { project, root };
}

describe("the Deno server's sources outside node_modules", () => {
  it('runs a checkout as it is', () => {
    expect(serverRoot('/home/user/sync-async-bench', { XDG_CACHE_HOME: join(tmp, 'unused') })).toBe('/home/user/sync-async-bench');
  });

  it('copies an installation once into the cache, the app linked as a workspace package and its dependencies to their installed folders', () => {
    const { project, root } = installation();
    const env = { XDG_CACHE_HOME: join(tmp, 'cache') };
    const copy = serverRoot(root, env);
    expect(copy.startsWith(join(tmp, 'cache/sync-async-bench/deno-server-1.2.3-'))).toBe(true);
    expect(copy.split('/')).not.toContain('node_modules');
    expect(readFileSync(join(copy, 'runtimes/deno/server.ts'), 'utf8')).toBe('import "@bench/app";\n');
    expect(readdirSync(join(copy, 'runtimes/deno'))).not.toContain('test');
    // Deno follows the links to the real folders: the app's sources stay outside node_modules.
    expect(realpathSync(join(copy, 'runtimes/deno/node_modules/@bench/app/src/index.ts'))).toBe(
      realpathSync(join(copy, 'packages/app/src/index.ts')),
    );
    expect(realpathSync(join(copy, 'packages/app/node_modules/hono'))).toBe(realpathSync(join(project, 'node_modules/hono')));
    // Made once: the same installation finds the same copy, and no half-made one is left.
    expect(serverRoot(root, env)).toBe(copy);
    expect(readdirSync(join(tmp, 'cache/sync-async-bench'))).toEqual([copy.split('/').at(-1)]);
  });

  it('makes a new copy when a source changes or another installation resolves the dependencies elsewhere', () => {
    const env = { XDG_CACHE_HOME: join(tmp, 'cache-2') };
    const first = installation();
    const copy = serverRoot(first.root, env);
    write(join(first.root, 'packages/app/src/index.ts'), 'export const app: string = "changed";\n');
    const changed = serverRoot(first.root, env);
    expect(changed).not.toBe(copy);
    expect(readFileSync(join(changed, 'packages/app/src/index.ts'), 'utf8')).toContain('changed');
    const second = installation();
    write(join(second.root, 'packages/app/src/index.ts'), 'export const app: string = "changed";\n');
    expect(serverRoot(second.root, env)).not.toBe(changed);
  });

  it("names the app's dependency the installation lacks", () => {
    const { project, root } = installation();
    rmSync(join(project, 'node_modules/hono'), { recursive: true });
    expect(() => serverRoot(root, { XDG_CACHE_HOME: join(tmp, 'cache-3') })).toThrow(/the app's dependency hono is not installed beside /);
  });
});
