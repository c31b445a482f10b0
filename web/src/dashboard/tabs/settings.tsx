// An agent's name, visibility and settings. Only the settings that changed are sent (PATCH merges
// them; an emptied field is sent as null, which removes the setting). The API validates; its
// message names the setting and is shown beside the Save button and marks that field.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, atLeast } from "../api";
import { useSession } from "../auth";
import { ErrorText, Field, messageOf } from "../components";
import type { Agent } from "../types";
import { IdentitySecretSection } from "./identity";
import { LlmTestButton } from "./llm_test";

// Settings with a structure of their own, edited as JSON in the fieldset `group` (the API validates
// them and names the item at fault). Secrets inside them (header values, API keys) read
// ********; sent back unchanged, they keep the stored value.
const JSON_SETTINGS = [
  { key: "synonyms", group: "Knowledge", label: "Synonyms", hint: 'Groups of words the agent treats as one term: [["bike", "bicycle"], ["refund", "money back"]].' },
  { key: "buttons", group: "Offers", label: "Buttons", hint: 'A list like [{"label": "Pricing", "url": "https://…", "keywords": ["price"]}].' },
  { key: "products", group: "Offers", label: "Products", hint: 'A list like [{"name": "…", "url": "https://…", "keywords": […], "price": 10, "currency": "EUR"}].' },
  { key: "leadForm", group: "Leads, forms and booking", label: "Lead form", hint: 'Asks for contact details: {"message": "…", "fields": […], "formId": "…", "keywords": […]}.' },
  { key: "forms", group: "Leads, forms and booking", label: "Forms", hint: 'A list like [{"id": "…", "name": "…", "submitLabel": "Send", "keywords": […], "fields": […]}].' },
  { key: "booking", group: "Leads, forms and booking", label: "Booking", hint: '{"provider": "…", "eventTitle": "…", "eventLength": 30, "timeZone": "…", "daysAhead": 14, "keywords": […], "availability": {"mon": [["09:00", "17:00"]], …}}.' },
  { key: "apiActions", group: "Tools (openai engine)", label: "API actions", hint: 'Calls to your own API: [{"name", "description", "method", "url", "parameters", "headers"}]. Header values read ********.' },
  { key: "clientActions", group: "Tools (openai engine)", label: "Client actions", hint: "Actions run in the widget's page; never offered to API chats." },
  { key: "mcpServers", group: "Tools (openai engine)", label: "MCP servers", hint: 'Remote MCP servers: [{"name": "shop", "url": "https://…/mcp", "headerName": "Authorization", "headerValue": "…", "allowedTools": ["lookup_order"]}]. Header values read ********; give the value again when you change a server\'s url.' },
  { key: "webSearch", group: "Tools (openai engine)", label: "Web search", hint: '{"enabled": true, "provider": "searxng", "url": "https://searx.example.org", "maxResults": 3, "fetchPages": true}; with "brave", an "apiKey" (reads ********).' },
] as const;
type JsonKey = (typeof JSON_SETTINGS)[number]["key"];
const JSON_KEYS = new Set<string>(JSON_SETTINGS.map((j) => j.key));

const LANGUAGES = "ar bg bn ca cs da de el en es eu fa fi fr ga he hi hr hu hy id it ja ko lt ms ne nl no pl pt ro ru sk sl sr sv ta th tr uk ur vi yi zh".split(" ");

// The form's fields, as strings and booleans, from the agent's settings.
function formFrom(agent: Agent) {
  const s = agent.settings ?? {};
  const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
  const json = (v: unknown) => (v === undefined || v === null ? "" : JSON.stringify(v, null, 2));
  const lines = (v: unknown) => (Array.isArray(v) ? v.join("\n") : "");
  return {
    name: agent.name,
    private: agent.private,
    instructions: text(s.instructions),
    fallbackMessage: text(s.fallbackMessage),
    engine: text(s.engine),
    llmBaseUrl: text(s.llm?.baseUrl),
    llmModel: text(s.llm?.model),
    llmApiKey: text(s.llm?.apiKey),
    llmEmbeddingModel: text(s.llm?.embeddingModel),
    language: text(s.language),
    answerThreshold: text(s.answerThreshold),
    monthlyMessageCap: text(s.monthlyMessageCap),
    showSources: s.showSources === true,
    followUps: s.followUps === true,
    saveContactDetails: s.saveContactDetails === true,
    topicAnalysis: s.topicAnalysis === true,
    allowedDomains: lines(s.allowedDomains),
    blockedCountries: lines(s.blockedCountries),
    messagesPerVisitor: text(s.messagesPerVisitor),
    liveChat: s.liveChat === true,
    handoffEmail: text(s.handoffEmail),
    knowledgeRefresh: text(s.knowledgeRefresh) || "off",
    ...(Object.fromEntries(JSON_SETTINGS.map(({ key }) => [key, json(s[key])])) as Record<JsonKey, string>),
  };
}
type Form = ReturnType<typeof formFrom>;

class FieldError extends Error {
  constructor(public setting: string, message: string) {
    super(message);
  }
}

// The settings as the API takes them (null removes a setting).
function settingsFrom(f: Form): Record<string, unknown> {
  const str = (v: string) => (v.trim() === "" ? null : v);
  const num = (v: string) => (v.trim() === "" ? null : Number.isNaN(Number(v)) ? v : Number(v));
  const json = (v: string, setting: string, label: string) => {
    if (v.trim() === "") return null;
    try {
      return JSON.parse(v);
    } catch {
      throw new FieldError(setting, `${label} is not valid JSON.`);
    }
  };
  const llm: Record<string, string> = {};
  if (f.llmBaseUrl.trim()) llm.baseUrl = f.llmBaseUrl.trim();
  if (f.llmModel.trim()) llm.model = f.llmModel.trim();
  if (f.llmApiKey) llm.apiKey = f.llmApiKey;
  if (f.llmEmbeddingModel.trim()) llm.embeddingModel = f.llmEmbeddingModel.trim();
  const list = (v: string) => {
    const items = v.split("\n").map((d) => d.trim()).filter(Boolean);
    return items.length ? items : null;
  };
  return {
    instructions: str(f.instructions),
    fallbackMessage: str(f.fallbackMessage),
    engine: str(f.engine),
    llm: Object.keys(llm).length ? llm : null,
    language: str(f.language),
    answerThreshold: num(f.answerThreshold),
    monthlyMessageCap: num(f.monthlyMessageCap),
    showSources: f.showSources,
    followUps: f.followUps,
    saveContactDetails: f.saveContactDetails,
    topicAnalysis: f.topicAnalysis,
    allowedDomains: list(f.allowedDomains),
    blockedCountries: list(f.blockedCountries),
    messagesPerVisitor: num(f.messagesPerVisitor),
    liveChat: f.liveChat,
    handoffEmail: str(f.handoffEmail),
    knowledgeRefresh: f.knowledgeRefresh,
    ...Object.fromEntries(JSON_SETTINGS.map(({ key, label }) => [key, json(f[key], key, label)])),
  };
}

// Fields with a hint under them (see the form).
const HINTED = new Set(["knowledgeRefresh", "instructions", "fallbackMessage", "language", "answerThreshold", "monthlyMessageCap", "llmApiKey", "allowedDomains", "blockedCountries", "messagesPerVisitor", "handoffEmail", ...JSON_KEYS]);

// Which form field shows a setting's error.
const FIELD_OF: Record<string, string> = { llm: "llmBaseUrl" };

export function SettingsTab(props: { agent: Agent; onSaved(agent: Agent): void }) {
  const { member } = useSession();
  const canEdit = atLeast(member.role, "editor");
  const [form, setForm] = useState(() => formFrom(props.agent));
  const [error, setError] = useState<{ message: string; field?: string }>({ message: "" });
  const [saved, setSaved] = useState("");
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => setForm(formFrom(props.agent)), [props.agent]);

  const set = (key: keyof Form) => (e: Event) => {
    const el = e.currentTarget as HTMLInputElement;
    setForm({ ...form, [key]: el.type === "checkbox" ? el.checked : el.value });
    setSaved("");
  };
  // Props for the control of form field `key`: id, value, handler, invalid state.
  const bind = (key: keyof Form) => ({
    id: "set-" + key,
    onInput: set(key),
    disabled: !canEdit,
    "aria-invalid": error.field === key ? true : undefined,
    "aria-describedby": [HINTED.has(key) && `set-${key}-hint`, error.field === key && "settings-error"].filter(Boolean).join(" ") || undefined,
  });

  // The JSON settings of fieldset `group`.
  const jsonFields = (group: string) =>
    JSON_SETTINGS.filter((j) => j.group === group).map(({ key, label, hint }) => (
      <Field id={"set-" + key} label={label + " (JSON)"} hint={hint}>
        <textarea {...bind(key)} value={form[key]} rows={4} class="mono" spellcheck={false} />
      </Field>
    ));

  async function submit(e: Event) {
    e.preventDefault();
    setError({ message: "" });
    setSaved("");
    const before = settingsFrom(formFrom(props.agent));
    let settings: Record<string, unknown>;
    try {
      const after = settingsFrom(form);
      settings = Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k])));
    } catch (err) {
      const fe = err as FieldError;
      setError({ message: fe.message, field: fe.setting });
      return;
    }
    const body: Record<string, unknown> = {};
    if (form.name !== props.agent.name) body.name = form.name;
    if (form.private !== props.agent.private) body.private = form.private;
    if (Object.keys(settings).length) body.settings = settings;
    setBusy(true);
    try {
      const r = await api<{ data: Agent }>("PATCH", `/console/v1/agents/${props.agent.id}`, body);
      props.onSaved(r.data);
      setSaved("Settings saved.");
    } catch (err) {
      const message = messageOf(err);
      // The setting is the message's quoted name up to its first item ('mcpServers[0].url').
      const setting = /'([A-Za-z]+)(?:[[.][^']*)?'/.exec(message)?.[1];
      const field = setting ? FIELD_OF[setting] ?? setting : undefined;
      setError({ message, field });
      if (field) formRef.current?.querySelector<HTMLElement>("#set-" + field)?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h2 id="tab-heading">Settings</h2>
      {!canEdit && <p class="notice">Your role ({member.role}) can view these settings but not change them.</p>}
      <form ref={formRef} class="settings" onSubmit={submit} noValidate>
        <fieldset>
          <legend>Agent</legend>
          <Field id="set-name" label="Name"><input {...bind("name")} value={form.name} maxLength={200} /></Field>
          <div class="check">
            <input type="checkbox" {...bind("private")} checked={form.private} onChange={set("private")} onInput={undefined} />
            <label for="set-private">Private (answers only here in the dashboard)</label>
          </div>
        </fieldset>

        <fieldset>
          <legend>Answers</legend>
          <Field id="set-instructions" label="Instructions" hint="What the language model is told about how to answer.">
            <textarea {...bind("instructions")} value={form.instructions} rows={4} />
          </Field>
          <Field id="set-fallbackMessage" label="Fallback message" hint="The reply when the agent has no answer.">
            <input {...bind("fallbackMessage")} value={form.fallbackMessage} />
          </Field>
          <Field id="set-engine" label="Engine">
            <select {...bind("engine")} value={form.engine} onChange={set("engine")}>
              <option value="">Default (retrieval)</option>
              <option value="retrieval">retrieval: built in</option>
              <option value="openai">openai: a language model provider</option>
            </select>
          </Field>
          <Field id="set-language" label="Language" hint="The language of the knowledge (stemming and stop words).">
            <select {...bind("language")} value={form.language} onChange={set("language")}>
              <option value="">Default (en)</option>
              {LANGUAGES.map((l) => <option value={l}>{l}</option>)}
            </select>
          </Field>
          <Field id="set-answerThreshold" label="Answer threshold" hint="0 to 1: how confident the built-in engine must be to answer (default 0.6).">
            <input {...bind("answerThreshold")} value={form.answerThreshold} inputMode="decimal" />
          </Field>
          <Field id="set-monthlyMessageCap" label="Monthly message cap" hint="Messages per month for this agent; empty for no cap.">
            <input {...bind("monthlyMessageCap")} value={form.monthlyMessageCap} inputMode="numeric" />
          </Field>
          <div class="check">
            <input type="checkbox" {...bind("showSources")} checked={form.showSources} onChange={set("showSources")} onInput={undefined} />
            <label for="set-showSources">Show sources with replies</label>
          </div>
          <div class="check">
            <input type="checkbox" {...bind("followUps")} checked={form.followUps} onChange={set("followUps")} onInput={undefined} />
            <label for="set-followUps">Suggest follow-up questions</label>
          </div>
          <div class="check">
            <input type="checkbox" {...bind("topicAnalysis")} checked={form.topicAnalysis} onChange={set("topicAnalysis")} onInput={undefined} />
            <label for="set-topicAnalysis">Give conversations topics and a sentiment</label>
          </div>
        </fieldset>

        <fieldset>
          <legend>Knowledge</legend>
          <Field id="set-knowledgeRefresh" label="Automatic refresh" hint="How often the agent's website and Notion pages are read again; changed pages are retrained, removed ones forgotten.">
            <select {...bind("knowledgeRefresh")} value={form.knowledgeRefresh} onChange={set("knowledgeRefresh")}>
              <option value="off">Off</option>
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
            </select>
          </Field>
          {jsonFields("Knowledge")}
        </fieldset>

        <fieldset>
          <legend>Language model provider (openai engine)</legend>
          <Field id="set-llmBaseUrl" label="Provider base URL"><input {...bind("llmBaseUrl")} value={form.llmBaseUrl} type="url" /></Field>
          <Field id="set-llmModel" label="Model"><input {...bind("llmModel")} value={form.llmModel} /></Field>
          <Field id="set-llmApiKey" label="Provider API key" hint="Stored keys show as ********; leave that to keep the stored key.">
            <input {...bind("llmApiKey")} value={form.llmApiKey} type="password" autocomplete="off" />
          </Field>
          <Field id="set-llmEmbeddingModel" label="Embedding model"><input {...bind("llmEmbeddingModel")} value={form.llmEmbeddingModel} /></Field>
          {atLeast(member.role, "admin") && (
            <LlmTestButton agentId={props.agent.id} baseUrl={form.llmBaseUrl} model={form.llmModel} apiKey={form.llmApiKey} />
          )}
        </fieldset>

        <fieldset>
          <legend>Offers</legend>
          {jsonFields("Offers")}
        </fieldset>

        <fieldset>
          <legend>Leads, forms and booking</legend>
          <div class="check">
            <input type="checkbox" {...bind("saveContactDetails")} checked={form.saveContactDetails} onChange={set("saveContactDetails")} onInput={undefined} />
            <label for="set-saveContactDetails">Save contact details written in a chat as a lead</label>
          </div>
          {jsonFields("Leads, forms and booking")}
        </fieldset>

        <fieldset>
          <legend>Tools (openai engine)</legend>
          {jsonFields("Tools (openai engine)")}
        </fieldset>

        <fieldset>
          <legend>Website widget and live chat</legend>
          <Field id="set-allowedDomains" label="Allowed domains" hint="One per line; subdomains are included. Empty: any site may embed the widget.">
            <textarea {...bind("allowedDomains")} value={form.allowedDomains} rows={3} />
          </Field>
          <Field id="set-blockedCountries" label="Blocked countries" hint="ISO 3166 codes, one per line (DE, FR): the widget does not answer visitors from them.">
            <textarea {...bind("blockedCountries")} value={form.blockedCountries} rows={2} />
          </Field>
          <Field id="set-messagesPerVisitor" label="Messages per visitor" hint="Widget messages one visitor may send in 24 hours; empty for no limit.">
            <input {...bind("messagesPerVisitor")} value={form.messagesPerVisitor} inputMode="numeric" />
          </Field>
          <div class="check">
            <input type="checkbox" {...bind("liveChat")} checked={form.liveChat} onChange={set("liveChat")} onInput={undefined} />
            <label for="set-liveChat">Live chat: the team can take conversations over</label>
          </div>
          <Field id="set-handoffEmail" label="Hand-off email" hint="Where conversations are mailed when a visitor asks for a person.">
            <input {...bind("handoffEmail")} value={form.handoffEmail} type="email" />
          </Field>
        </fieldset>

        {canEdit && (
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>Save settings</button>
            <span role="status" class="ok">{saved}</span>
          </div>
        )}
        <ErrorText id="settings-error" message={error.message} />
      </form>
      <IdentitySecretSection agent={props.agent} />
    </>
  );
}
