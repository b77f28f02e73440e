/**
 * A lean HTTP/1.1 response reader for the open-loop generator: it finds where each response
 * ends (Content-Length, chunked, or the connection's close) and hands back its status, and
 * nothing else. node:http's client parses every header into objects and wraps each response in
 * a stream; at tens of thousands of requests a second that costs the generator its schedule.
 * Bytes are read where they arrive (no copy) except a head or chunk-size line split across
 * reads, which is kept until its end comes.
 */

export class HttpParseError extends Error {}

/** One response's end: its status, and whether its connection can carry another request. */
export type OnResponse = (status: number, keepAlive: boolean) => void;

const CR = 13;
const LF = 10;
/** A head longer than this is not an answer from the servers under test. */
const MAX_HEAD_BYTES = 64 * 1024;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' | 'until-close';

export class ResponseReader {
  private state: State = 'head';
  /** Bytes of a head (or chunk-size / trailer line) whose end has not arrived yet. */
  private partial: Buffer | undefined;
  /** Body bytes still to come (length state), or of the current chunk (chunk-data). */
  private remaining = 0;
  private status = 0;
  private keepAlive = true;

  /** Between responses: a connection in this state may send its next request. */
  get idle(): boolean {
    return this.state === 'head' && this.partial === undefined;
  }

  /**
   * Reads `data` (bytes start..end), calling `onResponse` once for each response that ends in
   * it. Throws HttpParseError on bytes that are not an HTTP/1.x response.
   */
  push(data: Buffer, onResponse: OnResponse, start = 0, end = data.length): void {
    let buf = data;
    let at = start;
    let stop = end;
    if (this.partial !== undefined) {
      // A line split across reads: join it with what came (rare: heads are small).
      buf = Buffer.concat([this.partial, data.subarray(start, end)]);
      this.partial = undefined;
      at = 0;
      stop = buf.length;
    }
    while (at < stop) {
      switch (this.state) {
        case 'head': {
          const headEnd = indexOfHeadEnd(buf, at, stop);
          if (headEnd < 0) {
            this.keep(buf, at, stop);
            return;
          }
          this.parseHead(buf, at, headEnd);
          at = headEnd + 4;
          if (this.status < 200) break; // 1xx: an interim answer; the real one follows.
          if (this.state === 'head') this.done(onResponse);
          break;
        }
        case 'length': {
          const take = Math.min(this.remaining, stop - at);
          this.remaining -= take;
          at += take;
          if (this.remaining === 0) this.done(onResponse);
          break;
        }
        case 'chunk-size': {
          const lineEnd = indexOfLineEnd(buf, at, stop);
          if (lineEnd < 0) {
            this.keep(buf, at, stop);
            return;
          }
          const size = parseChunkSize(buf, at, lineEnd);
          at = lineEnd + 2;
          this.remaining = size;
          this.state = size === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'chunk-data': {
          const take = Math.min(this.remaining, stop - at);
          this.remaining -= take;
          at += take;
          if (this.remaining === 0) {
            this.state = 'chunk-crlf';
            this.remaining = 2;
          }
          break;
        }
        case 'chunk-crlf': {
          const take = Math.min(this.remaining, stop - at);
          this.remaining -= take;
          at += take;
          if (this.remaining === 0) this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          const lineEnd = indexOfLineEnd(buf, at, stop);
          if (lineEnd < 0) {
            this.keep(buf, at, stop);
            return;
          }
          // Trailer lines are skipped; the empty line ends the response.
          const empty = lineEnd === at;
          at = lineEnd + 2;
          if (empty) this.done(onResponse);
          break;
        }
        case 'until-close':
          return;
      }
    }
  }

  /** The connection closed: ends a response whose body runs to the close (true), else false. */
  close(onResponse: OnResponse): boolean {
    if (this.state !== 'until-close') return false;
    this.keepAlive = false;
    this.done(onResponse);
    return true;
  }

  private keep(buf: Buffer, at: number, stop: number): void {
    if (stop - at > MAX_HEAD_BYTES) throw new HttpParseError(`head or line longer than ${MAX_HEAD_BYTES} bytes`);
    this.partial = Buffer.from(buf.subarray(at, stop));
  }

  private done(onResponse: OnResponse): void {
    this.state = 'head';
    onResponse(this.status, this.keepAlive);
  }

  /** Status line and the three headers that decide framing and reuse; sets the body state. */
  private parseHead(buf: Buffer, at: number, headEnd: number): void {
    // "HTTP/1.1 200 OK": the version's minor digit at 7, the status at 9..11.
    if (headEnd - at < 12 || buf.toString('latin1', at, at + 5) !== 'HTTP/') throw new HttpParseError('not an HTTP/1.x response');
    const status = digit(buf[at + 9]) * 100 + digit(buf[at + 10]) * 10 + digit(buf[at + 11]);
    if (!(status >= 100 && status <= 999) || buf[at + 8] !== 32) throw new HttpParseError('bad status line');
    this.status = status;
    let keepAlive = buf[at + 7] !== 48; // HTTP/1.0 closes unless it says keep-alive
    let length = -1;
    let chunked = false;
    let line = indexOfLineEnd(buf, at, headEnd + 2) + 2;
    while (line < headEnd) {
      const lineEnd = indexOfLineEnd(buf, line, headEnd + 2);
      const first = buf[line]! | 0x20;
      // Only names starting c or t matter (content-length, connection, transfer-encoding).
      if (first === 0x63 || first === 0x74) {
        const colon = buf.indexOf(58, line);
        if (colon > line && colon < lineEnd) {
          const name = buf.toString('latin1', line, colon).toLowerCase();
          if (name === 'content-length' || name === 'connection' || name === 'transfer-encoding') {
            const value = buf
              .toString('latin1', colon + 1, lineEnd)
              .trim()
              .toLowerCase();
            if (name === 'content-length') {
              length = Number(value);
              if (!Number.isInteger(length) || length < 0) throw new HttpParseError(`bad content-length "${value}"`);
            } else if (name === 'connection') keepAlive = value.includes('keep-alive') || (keepAlive && !value.includes('close'));
            else chunked = value.split(',').at(-1)?.trim() === 'chunked';
          }
        }
      }
      line = lineEnd + 2;
    }
    this.keepAlive = keepAlive;
    if (status < 200 || status === 204 || status === 304) this.state = 'head';
    else if (chunked) this.state = 'chunk-size';
    else if (length >= 0) {
      this.remaining = length;
      this.state = length === 0 ? 'head' : 'length';
    } else {
      this.keepAlive = false;
      this.state = 'until-close';
    }
  }
}

/** A decimal digit's value; NaN for any other byte (so a status built from it is NaN). */
function digit(byte: number | undefined): number {
  return byte !== undefined && byte >= 48 && byte <= 57 ? byte - 48 : Number.NaN;
}

/** Index of the \r\n\r\n that ends a head, or -1. */
function indexOfHeadEnd(buf: Buffer, from: number, stop: number): number {
  const i = buf.indexOf('\r\n\r\n', from, 'latin1');
  return i >= 0 && i + 4 <= stop ? i : -1;
}

/** Index of the next \r\n from `from` (before `stop`), or -1. */
function indexOfLineEnd(buf: Buffer, from: number, stop: number): number {
  for (let i = from; i + 1 < stop; i++) if (buf[i] === CR && buf[i + 1] === LF) return i;
  return -1;
}

function parseChunkSize(buf: Buffer, at: number, lineEnd: number): number {
  // Chunk extensions (";name=value") follow the size and are ignored.
  const text = buf.toString('latin1', at, lineEnd).split(';')[0]?.trim() ?? '';
  if (!/^[0-9a-fA-F]{1,8}$/.test(text)) throw new HttpParseError(`bad chunk size "${text}"`);
  return Number.parseInt(text, 16);
}
