/** A client mistake: becomes a 4xx JSON answer, never a crash. */
export class BadRequest extends Error {
  readonly status = 400;
}

/** A worker call the pool ended at the module's timeoutMs: a 504 JSON answer naming the limit. */
export class WorkerTimeout extends Error {
  readonly status = 504;
}
