import { describe, expect, it } from 'vitest';
import { HttpParseError, ResponseReader } from '../src/load/http-reader.ts';

/** Feeds `pieces` one read at a time; returns every response the reader ended, in order. */
function read(pieces: (string | Buffer)[], reader = new ResponseReader()): { status: number; keepAlive: boolean }[] {
  const out: { status: number; keepAlive: boolean }[] = [];
  for (const piece of pieces)
    reader.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece, 'latin1'), (status, keepAlive) => out.push({ status, keepAlive }));
  return out;
}

const hello = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nHello, World';

describe('ResponseReader', () => {
  it('reads a Content-Length response in one piece and is idle after it', () => {
    const reader = new ResponseReader();
    expect(read([hello], reader)).toEqual([{ status: 200, keepAlive: true }]);
    expect(reader.idle).toBe(true);
  });

  it('reads a response split at every byte, ending it only on its last byte', () => {
    const reader = new ResponseReader();
    const bytes = Buffer.from(hello, 'latin1');
    const ends: number[] = [];
    for (let i = 0; i < bytes.length; i++) reader.push(bytes.subarray(i, i + 1), () => ends.push(i));
    expect(ends).toEqual([bytes.length - 1]);
  });

  it('reads several responses in one piece, and one split across two reads after them', () => {
    const three = `${hello}HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n${hello}`;
    const split = hello.length - 3;
    expect(read([three + hello.slice(0, split), hello.slice(split)]).map((r) => r.status)).toEqual([200, 404, 200, 200]);
  });

  it('reads only the given range of a shared buffer', () => {
    const shared = Buffer.alloc(200, 'x');
    const n = shared.write(hello, 'latin1');
    const out: number[] = [];
    new ResponseReader().push(shared, (status) => out.push(status), 0, n);
    expect(out).toEqual([200]);
  });

  it('reads chunked bodies, with extensions, trailers and chunks split across reads', () => {
    const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    const body = '5;ext=1\r\nHello\r\n7\r\n, World\r\n0\r\nX-Trailer: yes\r\n\r\n';
    expect(read([head + body + hello])).toHaveLength(2);
    const pieces = [head.slice(0, 20), head.slice(20) + body.slice(0, 4), body.slice(4, 13), body.slice(13, 30), body.slice(30)];
    const reader = new ResponseReader();
    expect(read(pieces, reader)).toEqual([{ status: 200, keepAlive: true }]);
    expect(reader.idle).toBe(true);
  });

  it('does not end a chunked response before its last chunk', () => {
    expect(read(['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n'])).toEqual([]);
  });

  it('hands back non-2xx statuses for the caller to count as errors', () => {
    expect(read(['HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\nerror']).map((r) => r.status)).toEqual([500]);
  });

  it('skips an interim 100 Continue and ends bodiless 204 and 304 answers at their head', () => {
    expect(read([`HTTP/1.1 100 Continue\r\n\r\n${hello}`]).map((r) => r.status)).toEqual([200]);
    expect(read(['HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n']).map((r) => r.status)).toEqual([
      204, 304,
    ]);
  });

  it('marks a connection the server closes as not reusable', () => {
    expect(read(['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'])).toEqual([{ status: 200, keepAlive: false }]);
    expect(read(['HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok'])).toEqual([{ status: 200, keepAlive: false }]);
    expect(read(['HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok'])).toEqual([{ status: 200, keepAlive: true }]);
  });

  it('ends a body without length at the close, and only such a body', () => {
    const open = new ResponseReader();
    const out: number[] = [];
    open.push(Buffer.from('HTTP/1.1 200 OK\r\n\r\nsome body'), (s) => out.push(s));
    expect(out).toEqual([]);
    expect(open.close((s) => out.push(s))).toBe(true);
    expect(out).toEqual([200]);
    const cut = new ResponseReader();
    cut.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'), () => out.push(-1));
    expect(cut.close(() => out.push(-1))).toBe(false);
    expect(out).toEqual([200]);
  });

  it('throws on bytes that are not an HTTP response, and on a bad status or length', () => {
    expect(() => read(['SSH-2.0-OpenSSH_9.2\r\n\r\n'])).toThrow(HttpParseError);
    expect(() => read(['HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n'])).toThrow(HttpParseError);
    expect(() => read(['HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n'])).toThrow(HttpParseError);
    expect(() => read(['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'])).toThrow(HttpParseError);
  });
});
