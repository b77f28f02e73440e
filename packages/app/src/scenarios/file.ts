// Seed 003: read one of the generated files, readFileSync against fs.promises.readFile.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { choiceParam } from '../params.ts';
import type { ScenarioSettings } from '../scenario-contract.ts';
import { checksum32 } from '../workloads/checksum.ts';
import { loadManifest, readManifest, type Manifest } from '../workloads/data-files.ts';

export const name = 'file';
export const description = 'read one of the generated files at random: readFileSync against fs.promises.readFile';
export const order = 2;
export const modes = ['sync', 'async'] as const;
/** The harness reads the files through before warm runs, or evicts them before each run with --cold. */
export const readsDataFiles = true;

/**
 * `?body=bytes` answers the file's bytes themselves (application/octet-stream) instead of the
 * JSON summary: seed 003 measured a server that sends the file, so its cost includes the transfer.
 */
const BODIES = ['summary', 'bytes'] as const;
type Body = (typeof BODIES)[number];

interface Read {
  body: Body;
}
type Answer = { file: string; bytes: number; checksum: string } | { file: string; data: Uint8Array };

// Paths are fixed at setup from the manifest; a request only picks an index at random,
// so nothing from the query string ever reaches the filesystem.
let files: { name: string; path: string }[] = [];

/** Fails with a clear message before the server answers when the data files are missing. */
export function setup(settings: ScenarioSettings): void {
  files = loadManifest(settings.dataDir).files.map((f) => ({ name: f.name, path: join(settings.dataDir, f.name) }));
}

const pick = () => files[Math.floor(Math.random() * files.length)] ?? files[0]!;

export function input(query: URLSearchParams): Read {
  return { body: choiceParam(query.getAll('body'), 'body', 'summary', BODIES) };
}

function answer(file: { name: string }, data: Uint8Array, body: Body): Answer {
  return body === 'bytes' ? { file: file.name, data } : { file: file.name, bytes: data.byteLength, checksum: checksum32(data) };
}

export function sync({ body }: Read): Answer {
  const file = pick();
  return answer(file, readFileSync(file.path), body);
}

export async function async({ body }: Read): Promise<Answer> {
  const file = pick();
  return answer(file, await readFile(file.path), body);
}

export function respond(result: Answer) {
  if (!('data' in result)) return result;
  return new Response(result.data, { headers: { 'content-type': 'application/octet-stream', 'x-file': result.file } });
}

/** Each call reads a file picked at random: answers are checked against the manifest, not each other. */
let known: { dir: string; manifest: Manifest } | undefined;
export function verify(body: { file?: unknown; bytes?: unknown; checksum?: unknown }, settings: ScenarioSettings): string | undefined {
  if (known?.dir !== settings.dataDir) known = { dir: settings.dataDir, manifest: readManifest(settings.dataDir) };
  const file = known.manifest.files.find((f) => f.name === body.file);
  if (file === undefined) return `file ${String(body.file)} is not in the manifest`;
  if (body.bytes !== file.bytes || body.checksum !== file.checksum) {
    return `${String(body.file)} answered ${String(body.bytes)} bytes / ${String(body.checksum)}, expected ${file.bytes} / ${file.checksum}`;
  }
  return undefined;
}
