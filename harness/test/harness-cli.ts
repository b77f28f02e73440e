/**
 * The node flags a test starts a harness entry point with, before the entry's path:
 * `spawn(process.execPath, [...HARNESS_NODE_ARGS, 'src/bench-cli.ts', ...flags])`. None: Node
 * strips the types itself. The harness is erasable TypeScript with explicit `.ts` imports, and the
 * workspace packages it imports resolve to their source outside node_modules, where Node strips
 * them too. Under tsx's loader a start spends about a second of CPU in its resolve and load hooks
 * over the ~900 modules an entry point reaches; without them, and with the compile cache the suite
 * turns on (vitest.config.ts), a start after the suite's first reuses V8's code for every module
 * unchanged since and costs about half. The servers a CLI starts keep tsx: that is the harness's
 * own choice, and part of what a test checks.
 *
 * A test that hands a CLI a user's TypeScript module (--scenario-file x.ts) starts it under tsx
 * instead, as a user's `pnpm bench` does: tsx's loader takes more than erasable syntax.
 */
export const HARNESS_NODE_ARGS: readonly string[] = [];

/**
 * What a command's in-process step throws (undefined when it returns): a refusal read without
 * starting the command, its message the line the command prints before it exits 2.
 */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
