/** The run was interrupted; the cell in progress is dropped, the finished ones kept. */
export class Interrupted extends Error {}
