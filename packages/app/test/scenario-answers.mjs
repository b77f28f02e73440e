// Loads scenario modules and prints what each answers, as one JSON line on stdout:
//   <runtime> scenario-answers.mjs '[["/abs/module.ts", "query"], ...]'
// scenarios-runtimes.test.ts runs it under Node, Bun and Deno and compares them. Plain JavaScript
// and node: imports only, so each runtime runs it as it is.
import process from 'node:process';

const specs = JSON.parse(process.argv[2] ?? '[]');
const answers = {};
const ready = new Set();
for (const [file, query] of specs) {
  const mod = await import(file);
  if (!ready.has(file)) {
    await mod.setup?.();
    ready.add(file);
  }
  const input = mod.input?.(new URLSearchParams(query));
  const sync = mod.sync(input);
  const async = mod.async === undefined ? undefined : await mod.async(input);
  answers[`${mod.name}?${query}`] = { sync, async };
}
process.stdout.write(`${JSON.stringify(answers)}\n`);
