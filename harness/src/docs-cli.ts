// `pnpm docs:results`: re-renders every result block of README.md and docs/*.md from the
// committed report it names (markers: docs/result-blocks.ts; kinds: docs/block-kinds.ts), so no
// figure in the docs is typed by hand. `--check` changes nothing and exits 1 when a block is stale;
// `--take <report.json> <docs/results/kind>` first makes a run's report the committed sample there;
// `--pictures` also redraws the docs' pictures from those samples in headless Chromium.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { FlagError, typedPath } from './cli/flags.ts';
import { CommandError, runCommand } from './cli/command.ts';
import { REPO_ROOT } from './system/paths.ts';
import { refreshDocs, takeSample } from './docs/refresh.ts';
import { drawPictures } from './docs/pictures.ts';
import { pageOf } from './site-kinds.ts';

const USAGE = 'usage: docs:results [--check] [--pictures] [--take <report.json> <docs/results/kind> [--note TEXT]]';

async function main(): Promise<number> {
  const all = process.argv.slice(2);
  const pictures = all.includes('--pictures');
  const args = all.filter((a) => a !== '--pictures');
  const check = args[0] === '--check' && args.length === 1;
  if (args[0] === '--take') {
    // pnpm runs the script from the repository root; paths are as the user typed them.
    const [from, to] = args.slice(1, 3).map((a) => typedPath(a));
    const note = args[3] === '--note' ? args[4] : undefined;
    if (from === undefined || to === undefined || !(args.length === 3 || (args.length === 5 && note !== undefined)))
      throw new FlagError(`--take needs a report and a folder (${USAGE})`);
    if (!existsSync(from)) throw new FlagError(`--take: no report at ${from}`);
    console.log(`docs:results: wrote ${relative(REPO_ROOT, takeSample(from, to, REPO_ROOT, note))}`);
  } else if (args.length > 0 && !check) {
    throw new FlagError(`unknown arguments ${args.join(' ')} (${USAGE})`);
  }
  const states = refreshDocs(REPO_ROOT, { write: !check });
  for (const s of states.filter((s) => s.state === 'error')) console.error(`docs:results: ${s.where}: ${s.reason}`);
  const stale = states.filter((s) => s.state === 'stale');
  if (check) for (const s of stale) console.error(`docs:results: stale: ${s.where}`);
  const errors = states.filter((s) => s.state === 'error').length;
  console.log(
    `docs:results: ${states.length} blocks, ${stale.length} ${check ? 'stale' : 're-rendered'}${errors > 0 ? `, ${errors} could not be rendered` : ''}`,
  );
  if (errors > 0) return 2;
  if (pictures && !check) {
    try {
      for (const file of await drawPictures(REPO_ROOT, pageOf)) console.log(`docs:results: drew ${file}`);
    } catch (error) {
      throw new CommandError((error as Error).message);
    }
  }
  return check && stale.length > 0 ? 1 : 0;
}

runCommand('docs:results', main);
