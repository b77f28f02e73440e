// Runs the `run:` steps of a GitHub Actions file (a composite action's runs.steps or a workflow
// job's steps) the way a runner does: `${{ }}` filled from the inputs, the earlier steps' outputs
// and the event; the GITHUB_* files and variables set; bash with -e and pipefail; a failed step
// skipping the later ones unless their `if:` says always(). `uses:` steps need GitHub and are
// skipped, by name, so a test can say which ones it did not run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface StepResult {
  name: string;
  /** ran (with its exit code), skipped by its if:, or not run because it is a `uses:` step. */
  status: 'ran' | 'skipped' | 'uses';
  code?: number;
  output: string;
}

export interface Context {
  inputs: Record<string, string>;
  /** The event payload (github.event) and the other github.* values the files name. */
  github: Record<string, unknown>;
  /** GITHUB_WORKSPACE: the caller's checkout, where run: steps start. */
  workspace: string;
  /** GITHUB_ACTION_PATH for a composite action's steps. */
  actionPath?: string;
  /** RUNNER_TEMP and the GITHUB_* files. */
  temp: string;
  /** Steps named here are not run (a reason in the test says why), as if their if: were false. */
  skip?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

export interface Run {
  steps: StepResult[];
  outputs: Record<string, Record<string, string>>;
  summary: string;
  failed: boolean;
}

/** `key=value` lines and `key<<DELIM` blocks, as GITHUB_OUTPUT holds them. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block !== null) {
      const end = lines.indexOf(block[2]!, i + 1);
      out[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}

function lookup(path: string, context: Context, outputs: Run['outputs']): unknown {
  const [root, ...rest] = path.trim().split('.');
  if (root === 'inputs') return context.inputs[rest.join('.')] ?? '';
  if (root === 'steps' && rest[1] === 'outputs') return outputs[rest[0]!]?.[rest.slice(2).join('.')] ?? '';
  if (root === 'github') {
    let value: unknown = context.github;
    for (const key of rest) value = (value as Record<string, unknown> | undefined)?.[key];
    return value ?? '';
  }
  throw new Error(`unsupported expression context: ${path}`);
}

/** One operand of an expression: a string literal, hashFiles('path'), or a context path. */
function operand(text: string, context: Context, outputs: Run['outputs']): unknown {
  const t = text.trim();
  const literal = /^'(.*)'$/.exec(t);
  if (literal !== null) return literal[1];
  const hash = /^hashFiles\('(.+)'\)$/.exec(t);
  if (hash !== null) return existsSync(join(context.workspace, hash[1]!)) ? 'hash' : '';
  return lookup(t, context, outputs);
}

/** The subset of the expression language these files use: a || b, a && b, ==, !=, always(), success(), failure(). */
export function evaluate(expression: string, context: Context, outputs: Run['outputs'], failed: boolean): unknown {
  const e = expression.trim();
  if (e.includes('&&')) return e.split('&&').every((part) => evaluate(part, context, outputs, failed));
  if (e.includes('||')) {
    for (const part of e.split('||')) {
      const value = evaluate(part, context, outputs, failed);
      if (value !== '' && value !== false && value !== undefined) return value;
    }
    return '';
  }
  if (e === 'always()') return true;
  if (e === 'success()') return !failed;
  if (e === 'failure()') return failed;
  const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(e);
  if (comparison !== null) {
    const same = String(operand(comparison[1]!, context, outputs)) === String(operand(comparison[3]!, context, outputs));
    return comparison[2] === '==' ? same : !same;
  }
  return operand(e, context, outputs);
}

const fill = (text: string, context: Context, outputs: Run['outputs'], failed: boolean) =>
  text.replace(/\$\{\{(.+?)\}\}/g, (_, expression: string) => String(evaluate(expression, context, outputs, failed)));

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}

/** The steps of a composite action (runs.steps) or of one workflow job (jobs.<id>.steps). */
export function stepsOf(file: string, job?: string): Step[] {
  const doc = parse(readFileSync(file, 'utf8')) as { runs?: { steps: Step[] }; jobs?: Record<string, { steps: Step[] }> };
  const steps = job === undefined ? doc.runs?.steps : doc.jobs?.[job]?.steps;
  if (steps === undefined) throw new Error(`${file}: no steps${job === undefined ? '' : ` in job ${job}`}`);
  return steps;
}

export async function runSteps(steps: readonly Step[], context: Context): Promise<Run> {
  mkdirSync(context.temp, { recursive: true });
  const summaryFile = join(context.temp, 'step-summary.md');
  const eventFile = join(context.temp, 'event.json');
  writeFileSync(summaryFile, '');
  writeFileSync(eventFile, JSON.stringify(context.github.event ?? {}));
  const run: Run = { steps: [], outputs: {}, summary: '', failed: false };
  for (const [index, step] of steps.entries()) {
    const name = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${index + 1}`;
    const condition =
      step.if === undefined ? !run.failed : evaluate(step.if.replace(/^\$\{\{|\}\}$/g, ''), context, run.outputs, run.failed);
    if (step.uses !== undefined) {
      run.steps.push({ name: `${name} (${step.uses})`, status: 'uses', output: '' });
      continue;
    }
    if (condition !== true || context.skip?.includes(name)) {
      run.steps.push({ name, status: 'skipped', output: '' });
      continue;
    }
    const outputFile = join(context.temp, `output-${index}`);
    writeFileSync(outputFile, '');
    const env: NodeJS.ProcessEnv = {
      ...(context.env ?? process.env),
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: context.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_EVENT_PATH: eventFile,
      GITHUB_ENV: join(context.temp, 'env'),
      RUNNER_TEMP: context.temp,
      ...(context.actionPath === undefined ? {} : { GITHUB_ACTION_PATH: context.actionPath }),
    };
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = fill(String(value), context, run.outputs, run.failed);
    const { code, output } = await bash(fill(step.run ?? '', context, run.outputs, run.failed), context.workspace, env);
    if (step.id !== undefined) run.outputs[step.id] = parseOutputs(readFileSync(outputFile, 'utf8'));
    run.steps.push({ name, status: 'ran', code, output });
    if (code !== 0) run.failed = true;
  }
  run.summary = readFileSync(summaryFile, 'utf8');
  return run;
}
