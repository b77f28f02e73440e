// A stopped server's map of its JIT code, kept beside its dumps as a perf map, and the dumps
// rewritten with its names (jit-names.ts).
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJitDump, type JitSymbol, jitLookup, nameJitFrames, parseJitDump, parsePerfMap } from './jit-names.ts';

/**
 * Where the server with this pid wrote its map: V8's perf map in /tmp, or JSC's jitdump file in
 * the folder it was given (named jit-<pid>.dump, or jit-<tid>-<pid>[-<suffix>].dump).
 */
function findMap(pid: number, dir: string): string[] {
  const perfMap = `/tmp/perf-${pid}.map`;
  if (existsSync(perfMap)) return [perfMap];
  const own = new RegExp(`^jit-(?:\\d+-)?${pid}(?:-[^.]+)?\\.dump$`);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => own.test(f))
        .map((f) => join(dir, f))
    : [];
}

/**
 * Moves the server's map to `to` (a jitdump converted to a perf map's lines: it carries the code
 * bytes too, which nobody reads here), then names the JIT frames in each group of dumps. Returns,
 * per group, the share of its address-only instructions that got a name (undefined: no map, or no
 * JIT code counted).
 */
export function keepJitMap(pid: number, dir: string, to: string, groups: readonly (readonly string[])[]): (number | undefined)[] {
  const found = findMap(pid, dir);
  if (found.length === 0) return groups.map(() => undefined);
  let symbols: JitSymbol[] = [];
  for (const file of found) {
    const bytes = readFileSync(file);
    if (isJitDump(bytes)) {
      symbols = [...symbols, ...parseJitDump(bytes)];
      rmSync(file, { force: true });
    } else {
      symbols = [...symbols, ...parsePerfMap(bytes.toString('utf8'))];
      copyFileSync(file, to);
      rmSync(file, { force: true });
    }
  }
  if (!existsSync(to)) writeFileSync(to, symbols.map((s) => `${s.start.toString(16)} ${s.size.toString(16)} ${s.name}\n`).join(''));
  const lookup = jitLookup(symbols);
  return groups.map((files) => {
    let jit = 0;
    let named = 0;
    for (const file of files) {
      if (!existsSync(file)) continue;
      const result = nameJitFrames(readFileSync(file, 'utf8'), lookup);
      writeFileSync(file, result.text);
      jit += result.jitInstructions;
      named += result.namedInstructions;
    }
    return jit === 0 ? undefined : named / jit;
  });
}
