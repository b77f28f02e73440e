/** A client mistake: becomes a 4xx JSON answer, never a crash. */
export class BadRequest extends Error {
  readonly status = 400;
}
