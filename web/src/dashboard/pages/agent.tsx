// One agent: its name, the tab links and the open tab.
import { useEffect } from "preact/hooks";
import { get } from "../api";
import { Badge, ErrorText, Loading, useLoad } from "../components";
import { AGENT_TABS, href } from "../router";
import type { Agent } from "../types";
import { SettingsTab } from "../tabs/settings";
import { KnowledgeTab } from "../tabs/knowledge";
import { ConversationsTab } from "../tabs/conversations";
import { TranscriptView } from "../tabs/transcript";
import { GapsTab } from "../tabs/gaps";
import { LiveChatTab } from "../tabs/livechat";
import { LeadsTab, ContactsTab } from "../tabs/records";
import { WebhooksTab } from "../tabs/webhooks";
import { TryItTab } from "../tabs/tryit";
import { AnalyticsTab } from "../tabs/analytics";

export function AgentPage(props: { agentId: string; tab: string; itemId?: string }) {
  const { data: agent, error, setData, reload } = useLoad(
    () => get<{ data: Agent }>(`/console/v1/agents/${encodeURIComponent(props.agentId)}`).then((r) => r.data),
    [props.agentId],
  );
  const tabLabel = AGENT_TABS.find(([slug]) => slug === props.tab)![1];
  useEffect(() => {
    if (agent) document.title = `${tabLabel} · ${agent.name} · Parley`;
  }, [agent?.name, tabLabel]);

  if (error) return (<><h1>Agent</h1><ErrorText message={error} /></>);
  if (!agent) return <Loading />;
  const id = agent.id;
  return (
    <>
      <p class="crumbs"><a href="#/">Agents</a> <span aria-hidden="true">›</span> {agent.name}</p>
      <div class="title-row">
        <h1>{agent.name}</h1>
        <Badge kind={agent.status}>{agent.status}</Badge>
        {agent.private && <Badge>private</Badge>}
      </div>
      <nav class="tabs" aria-label="Agent sections">
        <ul>
          {AGENT_TABS.map(([slug, label]) => (
            <li><a href={href("agents", id, slug)} aria-current={slug === props.tab ? "page" : undefined}>{label}</a></li>
          ))}
        </ul>
      </nav>
      <section class="tab-panel" aria-labelledby="tab-heading">
        {props.tab === "settings" && <SettingsTab agent={agent} onSaved={setData} />}
        {props.tab === "knowledge" && <KnowledgeTab agentId={id} onTrained={reload} />}
        {props.tab === "conversations" && !props.itemId && <ConversationsTab agentId={id} />}
        {props.tab === "conversations" && props.itemId && <TranscriptView agentId={id} conversationId={props.itemId} />}
        {props.tab === "gaps" && <GapsTab agentId={id} />}
        {props.tab === "live-chat" && <LiveChatTab agentId={id} />}
        {props.tab === "analytics" && <AnalyticsTab agentId={id} />}
        {props.tab === "leads" && <LeadsTab agentId={id} />}
        {props.tab === "contacts" && <ContactsTab agentId={id} />}
        {props.tab === "webhooks" && <WebhooksTab agentId={id} />}
        {props.tab === "try" && <TryItTab agentId={id} />}
      </section>
    </>
  );
}
