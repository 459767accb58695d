/** A refusal the caller can show as it is: 4xx on HTTP, with who decided when that is why. */
export class HubRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
