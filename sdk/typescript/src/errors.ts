// The error a helper of this client throws for a non-2xx answer: the API's
// {"error": {"code", "message"}} with the status, the request id and, for 429 and 503, how long
// the server asked to wait. (The generated calls of `client.api` return it as `error` instead.)

export class ParleyError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  /** Milliseconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfterMs: number | null;

  constructor(status: number, code: string, message: string, headers?: Headers) {
    super(message);
    this.name = "ParleyError";
    this.status = status;
    this.code = code;
    this.requestId = headers?.get("X-Request-Id") ?? null;
    const after = headers ? retryAfterMs(headers.get("Retry-After")) : undefined;
    this.retryAfterMs = after ?? null;
  }

  /** The error of a non-2xx response, from its body as openapi-fetch parsed it. */
  static of(response: Response, body: unknown): ParleyError {
    const e = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const code = typeof e?.code === "string" ? e.code : "http_error";
    const message = typeof e?.message === "string" ? e.message : `HTTP ${response.status}`;
    return new ParleyError(response.status, code, message, response.headers);
  }
}

/**
 * A Retry-After value in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable. `now` is for tests.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
