import bcrypt from 'bcrypt';
import { fibMemo, HASH_SECRET, HELLO_TEXT, type Manifest } from '@bench/app';

export interface Expectation {
  /** For the file scenario: the manifest the server's files were generated with. */
  manifest?: Manifest;
  hashCost?: number;
}

/**
 * Checks one answer from an endpoint before anything is timed: status, shape and value.
 * Returns undefined when the answer is right, else why it is not.
 */
export async function checkAnswer(path: string, res: Response, expect: Expectation = {}): Promise<string | undefined> {
  const text = await res.text();
  if (res.status !== 200) return `${path} answered ${res.status}: ${text.slice(0, 200)}`;
  const route = path.split('?', 1)[0] ?? path;
  if (route === '/hello') return text === HELLO_TEXT ? undefined : `${path} answered ${JSON.stringify(text.slice(0, 80))}`;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `${path} answered non-JSON: ${text.slice(0, 80)}`;
  }
  const query = new URL(path, 'http://x').searchParams;
  const mode = route.split('/')[2];
  switch (route.split('/')[1]) {
    case 'hash': {
      if (typeof body.hash !== 'string') return `${path}: no hash in ${text.slice(0, 120)}`;
      if (expect.hashCost !== undefined && body.cost !== expect.hashCost) return `${path}: cost ${body.cost}, expected ${expect.hashCost}`;
      return (await bcrypt.compare(HASH_SECRET, body.hash)) ? undefined : `${path}: hash does not verify against the secret`;
    }
    case 'file': {
      const file = expect.manifest?.files.find((f) => f.name === body.file);
      if (file === undefined) return `${path}: file ${String(body.file)} is not in the manifest`;
      if (body.bytes !== file.bytes || body.checksum !== file.checksum) {
        return `${path}: ${String(body.file)} answered ${String(body.bytes)} bytes / ${String(body.checksum)}, expected ${file.bytes} / ${file.checksum}`;
      }
      return undefined;
    }
    case 'fib': {
      if (typeof body.n !== 'number' || typeof body.value !== 'number') return `${path}: no n/value in ${text.slice(0, 120)}`;
      if (query.has('n') && Number(query.get('n')) !== body.n) return `${path}: answered n=${body.n}`;
      if (body.mode !== mode) return `${path}: answered mode ${String(body.mode)}`;
      const want = fibMemo(body.n);
      return body.value === want ? undefined : `${path}: fib(${body.n}) answered ${body.value}, expected ${want}`;
    }
    case 'sleep': {
      if (typeof body.ms !== 'number' || body.mode !== mode) return `${path}: unexpected ${text.slice(0, 120)}`;
      if (query.has('ms') && Number(query.get('ms')) !== body.ms) return `${path}: answered ms=${body.ms}`;
      return undefined;
    }
    default:
      return `${path}: no check for this route`;
  }
}
