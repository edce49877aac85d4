/**
 * A failure the caller should see as it is: an HTTP status, a readable message,
 * for bad input the field, and any further fields the answer carries (e.g.
 * upgradeUrl when credits ran out).
 */
export class ServiceError extends Error {
  readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 423 | 429 | 500 | 502 | 503 | 504;
  readonly field?: string;
  readonly details?: Record<string, string>;
  constructor(status: ServiceError["status"], message: string, field?: string, details?: Record<string, string>) {
    super(message);
    this.name = "ServiceError";
    this.status = status;
    this.field = field;
    this.details = details;
  }
}
