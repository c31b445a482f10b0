// Parley's typed client. `api` is generated: openapi-fetch over the types openapi-typescript
// writes from docs/openapi.yaml at build time (src/schema.ts), so every path, parameter, body and
// answer is checked by the compiler against the document the server is built with. Written by
// hand, where generation cannot reach: retries that honour Retry-After (retry.ts), an
// Idempotency-Key on every write of /api/v1 (so that a retry never writes twice), and the chat's
// two streamed forms, the text stream and server-sent events (sse.ts).

import createClient, { type Client } from "openapi-fetch";

import { ParleyError } from "./errors.js";
import { retryingFetch, type RetryOptions } from "./retry.js";
import { readServerSentEvents, readText } from "./sse.js";
import type { components, paths } from "./schema.js";

export type { components, paths } from "./schema.js";
export { ParleyError, retryAfterMs } from "./errors.js";
export { readServerSentEvents, readText, type ServerSentEvent } from "./sse.js";
export type Schemas = components["schemas"];

export interface ParleyOptions {
  /** Where the server listens, e.g. "https://parley.example.com". */
  baseUrl: string;
  /** An API key (`svc_live_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Attempts after the first for 429, 503 and failed connections (default 2; 0: none). */
  retries?: number;
  /** The longest Retry-After waited for, in ms (default 30 000); longer ones are returned. */
  maxRetryDelayMs?: number;
  /** The first wait before retrying a failed connection or a 503 without Retry-After (ms). */
  backoffMs?: number;
  /** Give every POST, PATCH and DELETE of /api/v1 an Idempotency-Key when it has none (default). */
  idempotencyKeys?: boolean;
  /** The fetch to use (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

/** The chat request of the streamed forms (`stream` is set by the helper). */
export type ChatRequest = Omit<Schemas["ChatRequest"], "stream">;

/** The reply text as the agent writes it, with the conversation it belongs to. */
export interface ChatTextStream extends AsyncIterable<string> {
  conversationId: string;
  sessionId: string;
  /** The live-chat state when known before the reply (X-Live-Chat), else null. */
  liveChat: string | null;
  response: Response;
}

/** One event of a chat answered as server-sent events. */
export type ChatEvent =
  | { event: "meta"; data: Schemas["ChatStreamMeta"] }
  | { event: "text"; data: Schemas["ChatStreamText"] }
  | { event: "blocks"; data: Schemas["ChatStreamBlocks"] }
  | { event: "error"; data: Schemas["Error"] }
  | { event: "done"; data: Record<string, never> };

export interface ParleyClient {
  /** Every operation of the document, typed: `api.GET("/api/v1/agents")`, … */
  api: Client<paths, "application/json">;
  /** POST …/chat with `stream: true`: the reply text as it is written. */
  chatText(agentId: string, request: ChatRequest, init?: { signal?: AbortSignal; idempotencyKey?: string }): Promise<ChatTextStream>;
  /** POST …/chat with `stream: true` and `Accept: text/event-stream`: meta, text…, blocks, done. */
  chatEvents(agentId: string, request: ChatRequest, init?: { signal?: AbortSignal; idempotencyKey?: string }): AsyncGenerator<ChatEvent>;
}

const WRITES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

export function createParleyClient(options: ParleyOptions): ParleyClient {
  const retry: RetryOptions = {
    retries: options.retries ?? 2,
    maxDelayMs: options.maxRetryDelayMs ?? 30_000,
    backoffMs: options.backoffMs ?? 250,
  };
  const inner = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const fetch = retryingFetch(inner, retry);
  const api = createClient<paths, "application/json">({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch,
  });
  if (options.idempotencyKeys ?? true) {
    api.use({
      onRequest({ request }) {
        if (WRITES.has(request.method) && new URL(request.url).pathname.startsWith("/api/v1/") &&
            !request.headers.has("Idempotency-Key")) {
          request.headers.set("Idempotency-Key", crypto.randomUUID());
        }
        return request;
      },
    });
  }

  async function streamed(agentId: string, request: ChatRequest, accept: string,
                          init: { signal?: AbortSignal; idempotencyKey?: string } = {}) {
    const headers: Record<string, string> = { Accept: accept };
    if (init.idempotencyKey) headers["Idempotency-Key"] = init.idempotencyKey;
    const { response, error } = await api.POST("/api/v1/agents/{agentId}/chat", {
      params: { path: { agentId } },
      body: { ...request, stream: true },
      headers,
      parseAs: "stream",
      ...(init.signal ? { signal: init.signal } : {}),
    });
    if (!response.ok) throw ParleyError.of(response, error);
    if (!response.body) throw new ParleyError(response.status, "empty_body", "The reply had no body.");
    return response;
  }

  return {
    api,
    async chatText(agentId, request, init) {
      const response = await streamed(agentId, request, "text/plain", init);
      const body = response.body as ReadableStream<Uint8Array>;
      return {
        conversationId: response.headers.get("X-Conversation-Id") ?? "",
        sessionId: response.headers.get("X-Session-Id") ?? "",
        liveChat: response.headers.get("X-Live-Chat"),
        response,
        [Symbol.asyncIterator]: () => readText(body),
      };
    },
    async *chatEvents(agentId, request, init) {
      const response = await streamed(agentId, request, "text/event-stream", init);
      for await (const e of readServerSentEvents(response.body as ReadableStream<Uint8Array>)) {
        yield { event: e.event, data: JSON.parse(e.data) } as ChatEvent;
      }
    },
  };
}
