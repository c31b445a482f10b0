// Hash routing (#/agents/agt_x/knowledge), so the server only ever serves `/`.
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "agents" }
  | { page: "agent"; agentId: string; tab: string; itemId?: string }
  | { page: "keys" }
  | { page: "team" }
  | { page: "usage" }
  | { page: "audit" }
  | { page: "notFound" };

export const AGENT_TABS = [
  ["settings", "Settings"],
  ["knowledge", "Knowledge"],
  ["conversations", "Conversations"],
  ["gaps", "Gaps"],
  ["live-chat", "Live chat"],
  ["analytics", "Analytics"],
  ["leads", "Leads"],
  ["contacts", "Contacts"],
  ["webhooks", "Webhooks"],
  ["try", "Try it"],
] as const;

export function parseRoute(hash: string): Route {
  // A malformed %-escape is kept as written rather than breaking the page.
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decode);
  if (parts.length === 0 || (parts[0] === "agents" && parts.length === 1)) return { page: "agents" };
  if (parts[0] === "agents") {
    // Ids are letters, digits and underscores: a crafted link cannot steer an API path elsewhere.
    const isId = (part: string | undefined) => part === undefined || /^[A-Za-z0-9_]+$/.test(part);
    if (!isId(parts[1]) || !isId(parts[3])) return { page: "notFound" };
    const tab = parts[2] ?? "settings";
    if (!AGENT_TABS.some(([slug]) => slug === tab)) return { page: "notFound" };
    return { page: "agent", agentId: parts[1], tab, itemId: parts[3] };
  }
  if (parts.length === 1 && (parts[0] === "keys" || parts[0] === "team" || parts[0] === "usage" || parts[0] === "audit")) return { page: parts[0] };
  return { page: "notFound" };
}

export const href = (...parts: string[]) => "#/" + parts.map(encodeURIComponent).join("/");

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
