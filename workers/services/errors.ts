/** A failure the caller should see as it is: an HTTP status, a readable message and, for bad input, the field. */
export class ServiceError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 423 | 429 | 500 | 502 | 503;
  readonly field?: string;
  constructor(status: ServiceError["status"], message: string, field?: string) {
    super(message);
    this.name = "ServiceError";
    this.status = status;
    this.field = field;
  }
}
