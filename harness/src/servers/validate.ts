import { isDeepStrictEqual } from 'node:util';
import { HELLO_TEXT, type ScenarioSettings } from '@bench/app';
import { scenarioModule } from './scenarios.ts';

export interface Expectation {
  /** The settings the server runs with: a module's verify() checks its answers against them. */
  settings?: ScenarioSettings;
}

/**
 * Checks one answer from an endpoint before anything is timed: status, shape and value.
 * Returns undefined when the answer is right, else why it is not. A scenario module's answer is
 * checked by its own verify() when it has one; a `mode` field in it must name the mode asked.
 */
export async function checkAnswer(path: string, res: Response, expect: Expectation = {}): Promise<string | undefined> {
  const text = await res.text();
  if (res.status !== 200) return `${path} answered ${res.status}: ${text.slice(0, 200)}`;
  const route = path.split('?', 1)[0] ?? path;
  if (route === '/hello') return text === HELLO_TEXT ? undefined : `${path} answered ${JSON.stringify(text.slice(0, 80))}`;
  const [, name = '', mode] = route.split('/');
  const mod = scenarioModule(name);
  if (mod === undefined) return `${path}: no check for this route`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${path} answered non-JSON: ${text.slice(0, 80)}`;
  }
  const named = modeOf(body);
  if (named !== undefined && named !== mode) return `${path}: answered mode ${String(named)}`;
  if (mod.verify === undefined || expect.settings === undefined) return undefined;
  let verdict: unknown;
  try {
    verdict = await mod.verify(body, expect.settings);
  } catch (error) {
    return `${path}: verify() threw: ${(error as Error).message}`;
  }
  if (typeof verdict === 'string') return `${path}: ${verdict}`;
  return verdict === false ? `${path}: verify() refused ${text.slice(0, 120)}` : undefined;
}

/**
 * Every mode must give the same answer for the same input: a mode's answer against the sync
 * route's for the same query (a `mode` field naming the mode aside). Modules whose answers differ
 * from call to call (a salt, a file picked at random) have verify() instead and are not compared.
 * Undefined when they agree, else a reason naming both answers.
 */
export async function checkModesAgree(path: string, text: string, ask: (path: string) => Promise<Response>): Promise<string | undefined> {
  const [route = path, query] = path.split('?', 2);
  const [, name = '', mode] = route.split('/');
  const mod = scenarioModule(name);
  if (mod === undefined || mod.verify !== undefined || mode === 'sync') return undefined;
  const reference = `/${name}/sync${query === undefined ? '' : `?${query}`}`;
  const res = await ask(reference);
  const other = await res.text();
  if (res.status !== 200) return `${reference} answered ${res.status}: ${other.slice(0, 200)}`;
  if (isDeepStrictEqual(withoutMode(parse(text)), withoutMode(parse(other)))) return undefined;
  return `${path} answered ${clip(text)} but ${reference} answered ${clip(other)} for the same input`;
}

function modeOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'mode' in body ? (body as { mode: unknown }).mode : undefined;
}

function withoutMode(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('mode' in body)) return body;
  const { mode: _mode, ...rest } = body as Record<string, unknown>;
  return rest;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
}
