// The console API's resources, as far as the dashboard reads them (docs/openapi.yaml).
export type Role = "owner" | "admin" | "editor" | "viewer";
export type Plan = "free" | "starter" | "pro" | "enterprise";

export interface Member {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
}

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  limits: { apiAccess: boolean; messagesPerMonth: number; trainingCharacters: number; contactsPerAgent: number };
  timeZone?: string; // IANA name: the days of the account's figures
  retentionDays?: number | null;
}

export interface Agent {
  id: string;
  name: string;
  private: boolean;
  status: string;
  trainedAt: string | null;
  characters: number;
  counts: { conversations: number; messages: number; leads: number; sources: number };
  createdAt: string;
  settings: Record<string, any>;
  identitySecret?: { set: boolean; createdAt: string | null };
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export interface Source {
  id: string;
  type: string;
  title: string | null;
  url: string | null;
  filename: string | null;
  question?: string;
  answer?: string;
  characters: number;
  status: "pending" | "processing" | "trained" | "failed";
  error: string | null;
  trainedAt?: string | null;
  createdAt: string;
  updatedAt?: string;
}

export type CrawlStatus = "queued" | "running" | "done" | "cancelled" | "failed";

// A website crawl or a refresh of the agent's website sources, as a job with live counters.
export interface Crawl {
  id: string;
  agentId: string;
  kind: "crawl" | "refresh";
  url: string | null; // a refresh of all the agent's websites has none
  status: CrawlStatus;
  maxPages: number | null;
  maxDepth: number | null;
  include: string[];
  exclude: string[];
  progress: { found: number; fetched: number; skipped: number; failed: number; unchanged: number; removed: number; characters: number };
  error: { code: string; message: string } | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

// The answer of a contact import: counts per outcome, the refused rows' reasons (the first
// 1,000) and the mapping the server used (CSV header → field).
export interface ContactImport {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  errors: { row: number; code: string; message: string }[];
  mapping: Record<string, string>;
}

export interface Training {
  total: number;
  trained: number;
  pending: number;
  processing: number;
  failed: number;
  done: boolean;
}

export interface Citation {
  title: string | null;
  url: string | null;
}

export interface ConversationSummary {
  id: string;
  sessionId: string;
  channel: string;
  createdAt: string;
  lastActivityAt: string;
  country: string | null;
  page: string | null;
  messageCount: number;
  topics: string[];
  sentiment: string | null;
  liveChat: string | null;
  csatScore: number | null;
}

export interface Message {
  id: string;
  role: "user" | "assistant";
  content: string;
  createdAt: string;
  authorName: string | null;
  sources: Citation[];
  blocks?: Blocks;
  outcome?: "answered" | "low_confidence" | "fallback" | null;
  confidence?: number | null;
  rating?: "up" | "down" | null;
  ratedAt?: string | null;
}

// A row of the conversations inbox.
export interface InboxConversation extends ConversationSummary {
  visitor: { name: string | null; email: string | null } | null;
  preview: string | null;
  badges: { unanswered: boolean; handedOff: boolean; ratedLow: boolean };
}

export interface GapGroup {
  id: string;
  agentId: string;
  question: string;
  count: number;
  channels: string[];
  firstAskedAt: string;
  lastAskedAt: string;
  resolved: boolean;
  resolvedAt: string | null;
  answerSourceId: string | null;
}

export interface GapDetail extends GapGroup {
  conversations: { conversationId: string; messageId: string; question: string; channel: string; reason: string; askedAt: string }[];
}

export interface Conversation {
  id: string;
  channel: string;
  sessionId: string;
  createdAt: string;
  lastActivityAt: string;
  country: string | null;
  page: string | null;
  topics: string[];
  sentiment: string | null;
  handoffRequestedAt: string | null;
  liveChat: { status: string; startedAt: string | null; endedAt: string | null } | null;
  csat: { score: number; comment: string | null; ratedAt: string | null } | null;
  identity?: { status: string; externalId: string | null; contactId: string | null };
  messages: Message[];
}

export interface Blocks {
  sources?: Citation[];
  followUps?: string[];
  buttons?: { label: string; url: string }[];
  products?: { name: string; url: string; image?: string; price?: number; currency?: string; available?: boolean }[];
  liveChat?: string | null;
}

export interface ApiKey {
  id?: string;
  name: string;
  prefix: string;
  allScopes: boolean;
  scopes: string[];
  createdBy?: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  key?: string;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  source: string;
  addedIn: string;
  paused: boolean;
  status: "active" | "paused" | "disabled";
  disabledReason: string | null;
  createdAt: string;
  secret?: string;
}

export interface Delivery {
  id: string;
  event: string;
  status: string;
  attempts: { at: string; statusCode: number | null; durationMs: number; error: string | null }[];
  nextAttemptAt: string | null;
  createdAt: string;
}

// An entry of the account's audit log (GET /console/v1/audit).
export interface AuditEntry {
  id: string;
  seq: number;
  createdAt: string;
  actor: { type: "member" | "key" | "cli"; id: string | null; name: string };
  address: string | null;
  action: string;
  target: { type: string; id: string | null };
  changes: { field: string; old: unknown; new: unknown }[];
  details: Record<string, unknown> | null;
  prevHash: string;
  hash: string;
}
