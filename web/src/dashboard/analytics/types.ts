// The console's analytics answer (GET /console/v1/agents/{agentId}/analytics; docs/openapi.yaml
// AgentAnalytics).
export interface Figures {
  conversations: number;
  visitorMessages: number;
  agentReplies: number;
  answered: number;
  lowConfidence: number;
  fallbacks: number;
  handoffs: number;
  liveChats: number;
  ended: number;
  resolved: number;
  resolutionRate: number | null;
  handoffRate: number | null;
  csat: { average: number | null; count: number; distribution: Record<"1" | "2" | "3" | "4" | "5", number> };
  thumbs: { up: number; down: number };
  channels: Record<string, number>;
  topics: { topic: string; conversations: number }[];
}

export interface AnalyticsDay extends Figures {
  date: string;
}

export interface AgentAnalytics {
  agentId: string;
  timeZone: string;
  from: string;
  to: string;
  days: AnalyticsDay[];
  totals: Figures;
}
