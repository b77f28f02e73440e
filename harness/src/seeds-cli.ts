// `tsx src/seeds-cli.ts [--runtimes node,bun,deno] [--claims ID,...] [--runs N] [--quick] [--out DIR]`: the four
// source experiments (docs/seeds.md) replayed on each runtime, their claims checked; writes
// report.json, report.md and report.html to a results folder of its own (a seeds run is not a
// plan of cells, so it does not go through report.json's cell schema).
import { FlagError, nameList, numberFlag, parseFlags, typedPath, writableDir } from './cli/flags.ts';
import { type CommandContext, runCommand } from './cli/command.ts';
import { RUNTIME_NAMES } from './servers/runtimes.ts';
import { REMOTE_FLAGS } from './servers/server-host.ts';
import { CLAIMS } from './seeds/claims.ts';
import { FULL_SHAPE, QUICK_SHAPE } from './seeds/replay-shape.ts';
import type { SeedsOptions } from './seeds/run-seeds.ts';

const CLAIM_IDS = CLAIMS.map((c) => c.id);

const SEEDS_REMOTE_REFUSAL =
  "--server-host is not supported by bench:seeds yet: experiments 001 (file reads, evicted from this host's page cache) and 003 (a static file made on this host) cannot run on another host; 000 and 002 could, but the replay starts its servers on this host only";

function parseSeedsArgs(argv: string[]): SeedsOptions {
  const values = parseFlags(argv, ['runtimes', 'claims', 'runs', 'out', ...REMOTE_FLAGS], ['quick']);
  // --server-host: refused in one line rather than run half-remote (000 and 002 would carry over; 001
  // and 003 need their files made and evicted on the server host, which the replay cannot yet do).
  if (REMOTE_FLAGS.some((flag) => values[flag] !== undefined)) throw new FlagError(SEEDS_REMOTE_REFUSAL);
  const quick = values.quick === true;
  const shape = quick ? QUICK_SHAPE : FULL_SHAPE;
  // Two runs at least: the verdict needs an interval.
  const runs = numberFlag('runs', values.runs as string | undefined, 2, 50, true) ?? shape.runs;
  return {
    runtimes: nameList('runtimes', values.runtimes as string | undefined, RUNTIME_NAMES) ?? [...RUNTIME_NAMES],
    claims: nameList('claims', values.claims as string | undefined, CLAIM_IDS) ?? [...CLAIM_IDS],
    shape: { ...shape, runs },
    quick,
    outDir: values.out as string | undefined,
  };
}

async function main({ signal }: CommandContext): Promise<number> {
  const options = parseSeedsArgs(process.argv.slice(2));
  if (options.outDir !== undefined) options.outDir = writableDir('out', typedPath(options.outDir));
  // The replay's modules (servers, load generators, reports) are loaded once the command line is
  // known to be good: a refused one is told in a tenth of the CPU.
  const { runSeeds } = await import('./seeds/run-seeds.ts');
  const { dir, exit } = await runSeeds(options, signal);
  // The site is the entry point's to rebuild: a feature does not import the entry points' composition.
  console.log((await import('./site-kinds.ts')).siteLines(dir));
  return exit;
}

runCommand('seeds', main, {
  interruptible: true,
  cleanup: async () => (await import('./servers/server.ts')).stopAllServers(),
});
