/**
 * The open-loop generator's connections: raw keep-alive TCP sockets, each carrying one request at
 * a time (no pipelining: a request never waits behind another's answer on the wire, which would
 * change what is measured), pooled so an idle one is reused before a new one is opened, and never
 * more than `maxInFlight` of them. Reads go through `onread` into one shared buffer (no stream, no
 * Buffer per read), and the answer is read by the lean ResponseReader.
 */
import { connect, type Socket } from 'node:net';
import { HttpParseError, ResponseReader } from './http-reader.ts';

/** What became of one request. */
export interface PoolHandlers {
  /** An answer came back (any status); `at` is performance.now() when its last byte was read. */
  answered(dueAt: number, status: number, at: number, index: number): void;
  /** The connection failed, closed or sent bytes that are not HTTP before the answer ended. */
  failed(dueAt: number): void;
}

class Connection {
  readonly socket: Socket;
  readonly reader = new ResponseReader();
  busy = false;
  dead = false;
  /** Scheduled time of the request in flight, and its place in the step's schedule (or -1). */
  dueAt = 0;
  index = -1;
  /** performance.now() after which the request in flight is abandoned. */
  deadline = 0;
  /** performance.now() when it last became idle (or was opened). */
  idleSince = performance.now();

  constructor(socket: Socket) {
    this.socket = socket;
  }
}

/** One shared read buffer: every read is parsed at once, before the next can arrive. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
const ON_READ = process.versions.bun === undefined;
/**
 * Connections to open before a step sends: enough for the requests in flight through a stall of
 * PREOPEN_STALL_MS at the step's rate (at least PREOPEN_MIN, at most the in-flight cap). More are
 * opened on demand when the server falls further behind.
 */
export const PREOPEN_STALL_MS = 25;
export const PREOPEN_MIN = 16;
export function preopenCount(ratePerSec: number, maxInFlight: number): number {
  return Math.min(maxInFlight, Math.max(PREOPEN_MIN, Math.ceil((ratePerSec * PREOPEN_STALL_MS) / 1000)));
}

/** Connections opened together by preopen, well under the listen backlog of every server here. */
export const PREOPEN_BATCH = 32;
export const PREOPEN_WAIT_MS = 1000;

export class ConnectionPool {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly request: Buffer;
  /** The URL asked of every request. */
  readonly url: string;
  private readonly host: string;
  private readonly port: number;
  private busyCount = 0;
  /** Connections opened so far (a pool that keeps reopening them is worth knowing about). */
  opened = 0;

  /** Both may change between steps: the pool outlives them (generator-child.ts). */
  maxInFlight: number;
  handlers: PoolHandlers;

  constructor(url: string, maxInFlight: number, handlers: PoolHandlers) {
    this.maxInFlight = maxInFlight;
    this.handlers = handlers;
    this.url = url;
    const target = new URL(url);
    if (target.protocol !== 'http:') throw new Error(`generator: only http:// URLs (${url})`);
    this.host = target.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(target.port || 80);
    this.request = Buffer.from(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: */*\r\n\r\n`, 'latin1');
  }

  get inFlight(): number {
    return this.busyCount;
  }

  /**
   * Sends one request on an idle connection (or a new one); false when `maxInFlight` are out,
   * and the request is not sent.
   */
  send(dueAt: number, deadline: number, index = -1): boolean {
    if (this.busyCount >= this.maxInFlight) return false;
    let conn = this.idle.pop();
    while (conn?.dead) conn = this.idle.pop();
    conn ??= this.open();
    conn.busy = true;
    conn.dueAt = dueAt;
    conn.index = index;
    conn.deadline = deadline;
    this.busyCount++;
    conn.socket.write(this.request);
    return true;
  }

  /**
   * Opens connections until `count` are open (never past `maxInFlight`), PREOPEN_BATCH at a time,
   * each batch connected (or failed) before the next: a step's sends then find a connection ready
   * instead of opening one on the send's own time. Not all at once: hundreds of SYNs together
   * overflowed the server's listen queue, and a connection whose handshake's last ACK was dropped
   * stalls its request for a 200 ms retransmission (nstat: 289 overflows and 552 TCP timeouts in
   * three 2 s steps). A batch not connected within PREOPEN_WAIT_MS (a host dropping
   * SYNs) is not waited for further: the step starts, and those connections finish connecting or
   * fail like any other.
   */
  async preopen(count: number): Promise<void> {
    let want = Math.min(count, this.maxInFlight) - this.all.size;
    while (want > 0) {
      const batch = Math.min(want, PREOPEN_BATCH);
      const pending: Promise<void>[] = [];
      for (let i = 0; i < batch; i++) {
        const conn = this.open();
        this.idle.push(conn);
        pending.push(
          new Promise<void>((resolve) => {
            conn.socket.once('connect', () => resolve());
            conn.socket.once('close', () => resolve());
          }),
        );
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, PREOPEN_WAIT_MS)));
      await Promise.race([Promise.all(pending), late]);
      clearTimeout(timer);
      want -= batch;
    }
  }

  /**
   * Ends a step: requests still out are abandoned (their connections closed, their answers would
   * belong to no step), idle connections are kept for the next step to the same server.
   */
  abandonInFlight(): void {
    // Every request in flight is past a deadline of +infinity: expire's own loop.
    this.expire(Number.POSITIVE_INFINITY);
  }

  /**
   * Closes idle connections unused for `ms` or more: a server closes keep-alive connections idle
   * past its own timeout (Node's is 5 s), and a request written as the close crosses it fails.
   */
  closeIdleFor(ms: number, now = performance.now()): void {
    const idle = this.idle.splice(0);
    for (const conn of idle) {
      if (!conn.dead && now - conn.idleSince < ms) this.idle.push(conn);
      else this.kill(conn);
    }
  }

  /** Abandons every request past its deadline (its connection is closed); returns their due times. */
  expire(now: number): number[] {
    const expired: number[] = [];
    for (const conn of this.all) {
      if (conn.busy && now >= conn.deadline) {
        expired.push(conn.dueAt);
        this.release(conn);
        this.kill(conn);
      }
    }
    return expired;
  }

  /** Closes every connection; requests still in flight are neither answered nor failed. */
  destroy(): void {
    for (const conn of this.all) {
      conn.busy = false;
      this.kill(conn);
    }
    this.busyCount = 0;
    this.idle.length = 0;
  }

  private open(): Connection {
    let conn: Connection | undefined;
    const onAnswer = (status: number, keepAlive: boolean) => {
      const c = conn as Connection;
      if (!c.busy) return;
      const at = performance.now();
      this.release(c);
      c.idleSince = at;
      if (keepAlive) this.idle.push(c);
      else this.kill(c);
      this.handlers.answered(c.dueAt, status, at, c.index);
    };
    const onBytes = (buffer: Uint8Array, bytes: number) => {
      const c = conn as Connection;
      try {
        c.reader.push(buffer as Buffer, onAnswer, 0, bytes);
      } catch (error) {
        if (!(error instanceof HttpParseError)) throw error;
        this.fail(c);
      }
    };
    // Bun's node:net has no onread: there, reads come as 'data' events.
    const socket = ON_READ
      ? connect({
          host: this.host,
          port: this.port,
          onread: {
            buffer: READ_BUFFER,
            callback: (bytes: number, buffer: Uint8Array) => {
              onBytes(buffer, bytes);
              return true;
            },
          },
        })
      : connect({ host: this.host, port: this.port }).on('data', (chunk: Buffer) => onBytes(chunk, chunk.length));
    socket.setNoDelay(true);
    conn = new Connection(socket);
    const c = conn;
    socket.on('error', () => {});
    socket.on('close', () => {
      // A body that runs to the close ends here; any other request still out was cut off.
      if (c.busy && !c.reader.close(onAnswer)) this.fail(c);
      this.forget(c);
    });
    this.all.add(conn);
    this.opened++;
    return conn;
  }

  private fail(conn: Connection): void {
    const dueAt = conn.dueAt;
    const wasBusy = conn.busy;
    this.release(conn);
    this.kill(conn);
    if (wasBusy) this.handlers.failed(dueAt);
  }

  private release(conn: Connection): void {
    if (!conn.busy) return;
    conn.busy = false;
    this.busyCount--;
  }

  private kill(conn: Connection): void {
    if (conn.dead) return;
    conn.dead = true;
    conn.socket.destroy();
    this.all.delete(conn);
  }

  private forget(conn: Connection): void {
    conn.dead = true;
    this.all.delete(conn);
  }
}
