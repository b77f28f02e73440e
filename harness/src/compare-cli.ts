// `tsx src/compare-cli.ts <baseline report.json or run folder> <current report.json or run folder> [--threshold 0.05] [--alpha 0.05] [--out FILE] [--json FILE]`
// Markdown on stdout. Exit 0: no regression; 1: a cell regressed significantly beyond the
// threshold; 2: the comparison could not be made (usage, unreadable or invalid report).
import { runCommand } from './cli/command.ts';
import { compareMain, EXIT_CANNOT_COMPARE } from './compare-main.ts';

runCommand('compare', () => compareMain(process.argv.slice(2)), {
  // A crash too means the comparison could not be made.
  crashCode: EXIT_CANNOT_COMPARE,
});
