// A short tour of the API through the client, type-checked against the types generated from
// docs/openapi.yaml (npm run typecheck): when the document and this code disagree on a path, a
// parameter, a body or an answer's field, the build fails. tests/clients/test/sdk.test.mjs runs it
// against the real server and checks what it found.

import { createParleyClient, type ChatEvent, type ParleyClient, type Schemas } from "../src/index.js";

export interface TourResult {
  agentNames: string[];
  sourceResult: Schemas["SourceAdded"]["result"];
  trained: boolean;
  reply: string;
  conversationId: string;
  streamedText: string;
  streamedConversationId: string;
  events: ChatEvent["event"][];
  eventText: string;
  conversationMessages: number;
  conversationsListed: number;
  contactResult: string;
  contactFound: string | null;
  replayed: string | null;
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: no data`);
  return value;
}

export async function tour(baseUrl: string, apiKey: string, agentId: string): Promise<TourResult> {
  const parley: ParleyClient = createParleyClient({ baseUrl, apiKey });
  const path = { agentId };

  const agents = must((await parley.api.GET("/api/v1/agents")).data, "listAgents");
  const agent = must((await parley.api.GET("/api/v1/agents/{agentId}", { params: { path } })).data, "getAgent");

  const added = must((await parley.api.POST("/api/v1/agents/{agentId}/sources", {
    params: { path },
    body: { type: "qa", question: "When is the shop open?", answer: "The shop is open from nine to five on weekdays." },
  })).data, "addSource");
  let trained = false;
  for (let i = 0; i < 500 && !trained; ++i) {
    const sources = must((await parley.api.GET("/api/v1/agents/{agentId}/sources", { params: { path } })).data, "listSources");
    trained = sources.training.done && sources.training.trained > 0;
    if (!trained) await new Promise((r) => setTimeout(r, 20));
  }

  const answered = must((await parley.api.POST("/api/v1/agents/{agentId}/chat", {
    params: { path },
    body: { message: "When is the shop open?", sessionId: "sdk-tour" },
  })).data, "chatWithAgent");

  const text = await parley.chatText(agentId, { message: "When is the shop open?", conversationId: answered.conversationId });
  let streamedText = "";
  for await (const piece of text) streamedText += piece;

  const events: ChatEvent["event"][] = [];
  let eventText = "";
  for await (const e of parley.chatEvents(agentId, { message: "Is the shop open on weekdays?" })) {
    events.push(e.event);
    if (e.event === "text") eventText += e.data.delta;
  }

  const conversation = must((await parley.api.GET("/api/v1/conversations/{conversationId}", {
    params: { path: { conversationId: answered.conversationId } },
  })).data, "getConversation");
  const conversations = must((await parley.api.GET("/api/v1/agents/{agentId}/conversations", {
    params: { path, query: { limit: 10 } },
  })).data, "listConversations");

  // A write with a key of our own, sent twice: the second answer is the first one replayed.
  const contact = { external_id: "sdk-tour-1", email: "tour@example.com", name: "Tour" };
  const first = await parley.api.POST("/api/v1/agents/{agentId}/contacts", {
    params: { path, header: { "Idempotency-Key": "sdk-tour-contact" } }, body: contact,
  });
  const again = await parley.api.POST("/api/v1/agents/{agentId}/contacts", {
    params: { path, header: { "Idempotency-Key": "sdk-tour-contact" } }, body: contact,
  });
  const found = must((await parley.api.GET("/api/v1/agents/{agentId}/contacts", {
    params: { path, query: { email: "tour@example.com" } },
  })).data, "listContacts");

  return {
    agentNames: [...agents.data.map((a) => a.name), agent.data.name],
    sourceResult: added.result,
    trained,
    reply: answered.reply,
    conversationId: answered.conversationId,
    streamedText,
    streamedConversationId: text.conversationId,
    events,
    eventText,
    conversationMessages: conversation.data.messages.length,
    conversationsListed: conversations.data?.length ?? 0,
    contactResult: must(first.data, "upsertContact").result,
    contactFound: found.data?.[0]?.externalId ?? null,
    replayed: again.response.headers.get("Idempotent-Replayed"),
  };
}
