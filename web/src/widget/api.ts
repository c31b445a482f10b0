// The widget's calls to its server's public widget API (/widget/v1; docs/decisions/widget.md and
// dashboard.md). Every call is a CORS request from the page's origin; errors are the API's JSON
// error object ({"error": {code, message}}), readable because the server sends CORS headers with
// them too.
import { readEvents } from "../shared/sse";

export interface SourceCitation { title: string | null; url: string | null }
export interface OfferButton { label: string; url: string }
export interface Product {
  name: string;
  url: string;
  image?: string;
  price?: number;
  compareAtPrice?: number;
  currency?: string;
  available?: boolean;
}
export interface FormField { id: string; label?: string; type?: string; required?: boolean; options?: unknown }
export interface ChatForm { formId: string; name: string; fields: FormField[]; submitLabel: string }
export interface LeadForm { message: string; fields: ("name" | "email" | "phone")[]; form: ChatForm | null }
export interface Booking {
  provider: string;
  eventTitle: string;
  eventLength: number;
  timeZone: string;
  days: { date: string; slots: string[] }[];
}
export type ReplyLiveChat = "offered" | "requested" | "paused" | null;
export interface Blocks {
  sources: SourceCitation[];
  followUps: string[];
  buttons: OfferButton[];
  products: Product[];
  form: ChatForm | null;
  leadForm: LeadForm | null;
  booking: Booking | null;
  liveChat: ReplyLiveChat;
}
export interface Meta { conversationId: string; sessionId: string; liveChat: string | null }
export interface AgentConfig { id: string; name: string; liveChat: boolean }
export type LiveChatStatus = "requested" | "active" | "ended";
export interface ServerMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  createdAt: string;
  authorName: string | null;
  sources: SourceCitation[];
  rating?: Rating; // the visitor's thumbs on an agent reply
}
export type IdentityStatus =
  | "anonymous"
  | "verified"
  | "invalid_signature"
  | "missing_signature"
  | "no_secret"
  | "contact_limit_reached";
export interface ConversationIdentity { status: IdentityStatus; externalId: string | null; contactId: string | null }
export type Rating = "up" | "down" | null;
export interface Conversation {
  id: string;
  identity?: ConversationIdentity;
  liveChat: { status: LiveChatStatus; startedAt: string | null; endedAt: string | null } | null;
  csat: { score: number; comment: string | null } | null;
  messages: ServerMessage[];
}

export class ApiError extends Error {
  constructor(public status: number, public code: string, message: string) {
    super(message);
  }
}

async function errorOf(res: Response): Promise<ApiError> {
  let code = "http_" + res.status;
  let message = "";
  try {
    const body = await res.json();
    code = body?.error?.code ?? code;
    message = body?.error?.message ?? "";
  } catch {
    // not JSON: keep the status
  }
  return new ApiError(res.status, code, message);
}

function networkError(): ApiError {
  return new ApiError(0, "network", "");
}

export class WidgetApi {
  constructor(private base: string, private agentId: string) {}

  private url(path: string): string {
    return this.base + "/widget/v1" + path;
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        method,
        headers: body === undefined ? undefined : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit",
      });
    } catch {
      throw networkError();
    }
    if (!res.ok) throw await errorOf(res);
    return (await res.json()) as T;
  }

  async agent(): Promise<AgentConfig> {
    return (await this.request<{ data: AgentConfig }>("GET", `/agents/${enc(this.agentId)}`)).data;
  }

  async conversation(id: string, visitorId: string): Promise<Conversation> {
    return (await this.request<{ data: Conversation }>("GET", `/conversations/${enc(id)}?visitorId=${enc(visitorId)}`)).data;
  }

  record(conversationId: string, kind: "form" | "contact" | "booking" | "csat", body: object): Promise<unknown> {
    return this.request("POST", `/conversations/${enc(conversationId)}/${kind}`, body);
  }

  // Parley.identify() after the conversation started: the server checks the signature and binds
  // the conversation to the visitor's contact when it holds.
  async identify(conversationId: string, visitorId: string, identity: { userId: string; userHash: string }) {
    type Answer = { data: { conversationId: string; identity: ConversationIdentity } };
    const body = { visitorId, userId: identity.userId, userHash: identity.userHash };
    return (await this.request<Answer>("POST", `/conversations/${enc(conversationId)}/identify`, body)).data;
  }

  // The visitor's thumbs on one agent reply; null takes them back.
  async rate(conversationId: string, messageId: string, visitorId: string, rating: Rating): Promise<Rating> {
    const path = `/conversations/${enc(conversationId)}/messages/${enc(messageId)}/rating`;
    return (await this.request<{ data: { rating: Rating } }>("POST", path, { visitorId, rating })).data.rating;
  }

  eventsUrl(conversationId: string, visitorId: string): string {
    return this.url(`/conversations/${enc(conversationId)}/events?visitorId=${enc(visitorId)}`);
  }

  // Sends a message and reports the reply as it arrives: meta, then text pieces, then blocks.
  // Resolves once the reply is complete; rejects with an ApiError (before or during the reply).
  async send(
    body: {
      message: string;
      visitorId: string;
      conversationId?: string;
      page: string;
      timeZone?: string;
      userId?: string;
      userHash?: string;
    },
    on: { meta(m: Meta): void; text(delta: string): void; blocks(b: Blocks): void },
  ): Promise<void> {
    let res: Response;
    try {
      res = await fetch(this.url(`/agents/${enc(this.agentId)}/messages`), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({ ...body, stream: true }),
        credentials: "omit",
      });
    } catch {
      throw networkError();
    }
    if (!res.ok) throw await errorOf(res);
    const type = res.headers.get("Content-Type") ?? "";
    if (!type.includes("text/event-stream") || !res.body) {
      // A server that does not stream answers the JSON reply.
      const reply = await res.json();
      on.meta({ conversationId: reply.conversationId, sessionId: reply.sessionId, liveChat: null });
      if (reply.reply) on.text(reply.reply);
      on.blocks(reply as Blocks);
      return;
    }
    let done = false;
    try {
      for await (const ev of readEvents(res.body)) {
        const data = ev.data ? JSON.parse(ev.data) : {};
        if (ev.event === "meta") on.meta(data);
        else if (ev.event === "text") on.text(String(data.delta ?? ""));
        else if (ev.event === "blocks") on.blocks(data);
        else if (ev.event === "done") done = true;
        else if (ev.event === "error") {
          const e = data.error ?? data;
          throw new ApiError(0, e.code ?? "error", e.message ?? "");
        }
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw networkError();
    }
    if (!done) throw new ApiError(0, "interrupted", "");
  }
}

function enc(s: string): string {
  return encodeURIComponent(s);
}

// What the visitor reads for an error (the server's messages are written for developers).
export function describeError(err: unknown): string {
  if (!(err instanceof ApiError)) return "Something went wrong. Please try again.";
  switch (err.code) {
    case "network":
      return "The chat could not be reached. Check your connection and try again.";
    case "interrupted":
      return "The reply was interrupted. Please send your message again.";
    case "rate_limited":
      return "Too many requests. Please wait a moment and try again.";
    case "visitor_message_limit_reached":
      return "You have reached the message limit for now. Please try again later.";
    case "agent_busy":
    case "unavailable":
      return "The assistant is busy right now. Please try again in a moment.";
    case "timeout":
      return "The reply took too long. Please try again.";
    case "message_limit_reached":
    case "agent_cap_reached":
      return "The assistant cannot answer more messages right now.";
    case "invalid_request":
      return err.message || "That could not be sent. Please check it and try again.";
    default:
      return err.message || "Something went wrong. Please try again.";
  }
}

// The refusal shown instead of the chat when the agent may not chat here.
export function refusalOf(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  switch (err.code) {
    case "origin_not_allowed":
      return "This chat is not available on this site.";
    case "country_blocked":
      return "This chat is not available in your country.";
    case "agent_private":
      return "This chat is not available.";
    default:
      return err.status === 404 && err.code === "not_found" ? "This chat is not available." : null;
  }
}
