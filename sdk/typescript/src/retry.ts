// The fetch every call of the client goes through: a request the server asks to try again (429
// with Retry-After, 503) is sent again after the time it names, and one that got no answer at all
// (the connection failed) is sent again after a short backoff — but only when sending it twice is
// safe: a GET or HEAD, or a write that carries an Idempotency-Key (the server then answers a
// repeat with the first answer and does the write once). A wait longer than `maxDelayMs` is not
// waited for: the answer is given back as it is.

import { retryAfterMs } from "./errors.js";

export interface RetryOptions {
  /** Attempts after the first; 0 turns retrying off. */
  retries: number;
  /** The longest wait honoured; a longer Retry-After returns the 429/503 as it is. */
  maxDelayMs: number;
  /** The wait before retrying a failed connection, doubled each time. */
  backoffMs: number;
}

function retriable(request: Request): boolean {
  return request.method === "GET" || request.method === "HEAD" || request.headers.has("Idempotency-Key");
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function retryingFetch(
  inner: (request: Request) => Promise<Response>,
  options: RetryOptions,
): (request: Request) => Promise<Response> {
  return async (request: Request) => {
    const safe = retriable(request);
    for (let attempt = 0; ; ++attempt) {
      const last = !safe || attempt >= options.retries;
      let response: Response;
      try {
        response = await inner(last ? request : request.clone());
      } catch (failure) {
        if (last || request.signal.aborted) throw failure;
        await sleep(options.backoffMs * 2 ** attempt, request.signal);
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) return response;
      const wait = retryAfterMs(response.headers.get("Retry-After")) ?? options.backoffMs * 2 ** attempt;
      if (wait > options.maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
