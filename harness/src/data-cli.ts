// `pnpm data [--count N] [--size-bytes B] [--dir D] [--force]`: makes the file scenario's inputs.
import { parseArgs } from 'node:util';
import { DATA_DEFAULTS, generateDataFiles } from '@bench/app';
import { DEFAULT_DATA_DIR, ensureDataFiles } from './system/data-files.ts';

function main(): number {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        count: { type: 'string', default: String(DATA_DEFAULTS.count) },
        'size-bytes': { type: 'string', default: String(DATA_DEFAULTS.sizeBytes) },
        dir: { type: 'string', default: DEFAULT_DATA_DIR },
        force: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    console.error(`data: ${(error as Error).message}`);
    return 2;
  }
  const count = Number(values.count);
  const size = Number(values['size-bytes']);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) {
    console.error(`data: --count must be an integer from 1 to 100000, got "${values.count}"`);
    return 2;
  }
  if (!Number.isInteger(size) || size < 1 || size > 1024 ** 3) {
    console.error(`data: --size-bytes must be an integer from 1 to ${1024 ** 3}, got "${values['size-bytes']}"`);
    return 2;
  }
  const started = Date.now();
  const manifest = values.force
    ? generateDataFiles(values.dir, count, size)
    : ensureDataFiles(values.dir, count, size, (line) => console.log(line));
  console.log(`data: ${manifest.count} files of ${manifest.sizeBytes} bytes ready in ${values.dir} (${Date.now() - started} ms)`);
  return 0;
}

process.exitCode = main();
