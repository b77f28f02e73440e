// `pnpm data [--count N] [--size-bytes B] [--dir D] [--force]`: makes the file scenario's inputs.
import { DATA_DEFAULTS, generateDataFiles } from '@bench/app';
import { numberFlag, parseFlags } from './cli/flags.ts';
import { runCommand } from './cli/command.ts';
import { DEFAULT_DATA_DIR, ensureDataFiles } from './system/data-files.ts';

function main(): number {
  const values = parseFlags(process.argv.slice(2), ['count', 'size-bytes', 'dir'], ['force']);
  const count = numberFlag('count', values.count as string | undefined, 1, 100_000, true) ?? DATA_DEFAULTS.count;
  const size = numberFlag('size-bytes', values['size-bytes'] as string | undefined, 1, 1024 ** 3, true) ?? DATA_DEFAULTS.sizeBytes;
  const dir = (values.dir as string | undefined) ?? DEFAULT_DATA_DIR;
  const started = Date.now();
  const manifest =
    values.force === true ? generateDataFiles(dir, count, size) : ensureDataFiles(dir, count, size, (line) => console.log(line));
  console.log(`data: ${manifest.count} files of ${manifest.sizeBytes} bytes ready in ${dir} (${Date.now() - started} ms)`);
  return 0;
}

runCommand('data', main);
