import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

/** What Deno runs, from the installation's root: the app's package and the Deno server's folder. */
const SOURCES = ['packages/app/package.json', 'packages/app/src', 'runtimes/deno'];

/** The files under one of SOURCES, relative to the root, in a fixed order (the hash reads them in it). */
function files(root: string, path: string): string[] {
  if (statSync(join(root, path)).isFile()) return [path];
  return readdirSync(join(root, path), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(sep).some((part) => part === 'node_modules' || part === 'test'))
    .sort();
}

/** The real folder of each of the app's npm dependencies, as the installation resolves them. */
function dependencyDirs(root: string): Map<string, string> {
  const manifest = join(root, 'packages/app/package.json');
  const { dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
  const paths = createRequire(manifest).resolve.paths('') ?? [];
  const dirs = new Map<string, string>();
  for (const name of Object.keys(dependencies)) {
    const at = paths.map((p) => join(p, name)).find((dir) => existsSync(join(dir, 'package.json')));
    if (at === undefined) throw new Error(`the app's dependency ${name} is not installed beside ${root}`);
    dirs.set(name, realpathSync(at));
  }
  return dirs;
}

function cacheHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
}

/**
 * The folder Deno runs the server from. Deno strips the types of no TypeScript file under
 * node_modules, which is where an installed sync-async-bench keeps its sources; there the app and
 * this folder are copied once into the user's cache, keyed by the package's version, the files'
 * content and where the dependencies resolved, and linked to those dependencies as pnpm links a
 * workspace (Deno follows the links to the real folders). A checkout is used as it is.
 */
export function serverRoot(root: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!root.split(sep).includes('node_modules')) return root;
  const sources = SOURCES.flatMap((path) => files(root, path));
  const dependencies = dependencyDirs(root);
  const hash = createHash('sha256');
  for (const file of sources)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  for (const [name, dir] of dependencies) hash.update(`${name}\0${dir}\0`);
  const { version = '0.0.0' } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const parent = join(cacheHome(env), 'sync-async-bench');
  const target = join(parent, `deno-server-${version}-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(target)) return target;
  mkdirSync(parent, { recursive: true });
  // Built beside and renamed into place, so a second run never sees half a copy.
  const stage = mkdtempSync(join(parent, '.stage-'));
  try {
    for (const file of sources) cpSync(join(root, file), join(stage, file));
    const modules = join(stage, 'packages/app/node_modules');
    for (const [name, dir] of dependencies) {
      mkdirSync(dirname(join(modules, name)), { recursive: true });
      symlinkSync(dir, join(modules, name), 'dir');
    }
    const app = join(stage, 'runtimes/deno/node_modules/@bench/app');
    mkdirSync(dirname(app), { recursive: true });
    symlinkSync(relative(dirname(app), join(stage, 'packages/app')), app, 'dir');
    renameSync(stage, target);
  } catch (error) {
    rmSync(stage, { recursive: true, force: true });
    // Another run made the same copy first.
    if (!existsSync(target)) throw error;
  }
  return target;
}
