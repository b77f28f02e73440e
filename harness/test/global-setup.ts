/**
 * Before any test file: the default data files (data/files), which the remote tests' servers and
 * bench:seeds read. On a fresh clone the first run that needs them makes them; with test files
 * running side by side, two could start making them at once and read each other's half-written
 * set. Made here once, every later ensureDataFiles finds them complete.
 */
import { DEFAULT_DATA_DIR, ensureDataFiles } from '../src/system/data-files.ts';

export default function setup(): void {
  ensureDataFiles(DEFAULT_DATA_DIR, undefined, undefined, (line) => console.log(`global setup: ${line}`));
}
