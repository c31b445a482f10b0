// An agent's leads and contacts: a page at a time, the whole list as a CSV file, and contacts
// imported from a CSV file.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api, atLeast, get, query } from "../api";
import { useSession } from "../auth";
import { Confirm, ErrorText, Loading, messageOf, Pager, Time, usePaged } from "../components";
import { downloadCsv, fetchAll, toCsv } from "../csv";
import type { Page } from "../types";
import { ImportContacts } from "./contact_import";

interface Lead {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  customFields: { id: string; label: string | null; value: unknown }[];
  source: string;
  conversationId: string | null;
  collectedAt: string;
  lastSeenAt: string;
  submissionCount: number;
}

interface Contact {
  id: string;
  externalId: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  attributes: Record<string, unknown>;
  source: string;
  firstSeenAt: string;
  lastSeenAt: string;
  createdAt: string;
}

interface Column<T> {
  title: string;
  cell(row: T): ComponentChildren;
  csv(row: T): unknown;
}

const dash = (v: string | null) => v ?? <span class="muted">—</span>;

const LEAD_COLUMNS: Column<Lead>[] = [
  { title: "Name", cell: (l) => dash(l.name), csv: (l) => l.name },
  { title: "Email", cell: (l) => dash(l.email), csv: (l) => l.email },
  { title: "Phone", cell: (l) => dash(l.phone), csv: (l) => l.phone },
  { title: "Source", cell: (l) => l.source, csv: (l) => l.source },
  { title: "Other fields", cell: (l) => l.customFields.map((f) => `${f.label ?? f.id}: ${fmt(f.value)}`).join("; ") || dash(null), csv: (l) => l.customFields.map((f) => `${f.label ?? f.id}: ${fmt(f.value)}`).join("; ") },
  { title: "Submissions", cell: (l) => l.submissionCount, csv: (l) => l.submissionCount },
  { title: "Collected", cell: (l) => <Time at={l.collectedAt} />, csv: (l) => l.collectedAt },
  { title: "Last seen", cell: (l) => <Time at={l.lastSeenAt} />, csv: (l) => l.lastSeenAt },
];
const LEAD_CSV_EXTRA: Column<Lead>[] = [
  { title: "Id", cell: () => null, csv: (l) => l.id },
  { title: "Conversation", cell: () => null, csv: (l) => l.conversationId },
];

const CONTACT_COLUMNS: Column<Contact>[] = [
  { title: "Name", cell: (c) => dash(c.name), csv: (c) => c.name },
  { title: "Email", cell: (c) => dash(c.email), csv: (c) => c.email },
  { title: "Phone", cell: (c) => dash(c.phone), csv: (c) => c.phone },
  { title: "External id", cell: (c) => dash(c.externalId), csv: (c) => c.externalId },
  { title: "Source", cell: (c) => c.source, csv: (c) => c.source },
  { title: "Attributes", cell: (c) => Object.entries(c.attributes).map(([k, v]) => `${k}: ${fmt(v)}`).join("; ") || dash(null), csv: (c) => (Object.keys(c.attributes).length ? c.attributes : "") },
  { title: "First seen", cell: (c) => <Time at={c.firstSeenAt} />, csv: (c) => c.firstSeenAt },
  { title: "Last seen", cell: (c) => <Time at={c.lastSeenAt} />, csv: (c) => c.lastSeenAt },
];
const CONTACT_CSV_EXTRA: Column<Contact>[] = [{ title: "Id", cell: () => null, csv: (c) => c.id }];

const fmt = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

export const LeadsTab = (props: { agentId: string }) => (
  <RecordList<Lead> agentId={props.agentId} kind="leads" title="Leads" columns={LEAD_COLUMNS} csvExtra={LEAD_CSV_EXTRA} empty="No leads yet." />
);
interface ErasureReport {
  contactId: string;
  removed: Record<string, number>;
}

const ERASED_KINDS: [string, string][] = [["contacts", "contact"], ["leads", "leads"], ["conversations", "conversations"], ["messages", "messages"],
  ["events", "events"], ["webhookDeliveries", "webhook deliveries"], ["formSubmissions", "form submissions"], ["bookings", "bookings"],
  ["returnRequests", "return requests"], ["idempotencyKeys", "stored API answers"]];

const erasedText = (r: ErasureReport) =>
  "Erased: " + ERASED_KINDS.map(([k, label]) => `${r.removed[k] ?? 0} ${label}`).join(", ") + ".";

// Contacts, for editors "Import contacts", and for owners and admins "Erase" on each contact (with
// a confirmation, then the report of what went); the list is read again after an import or erasure.
export function ContactsTab(props: { agentId: string }) {
  const { member } = useSession();
  const [importing, setImporting] = useState(false);
  const [version, setVersion] = useState(0);
  const [erasing, setErasing] = useState<Contact | null>(null);
  const [report, setReport] = useState("");
  const actions = atLeast(member.role, "editor") && <button type="button" onClick={() => setImporting(true)}>Import contacts</button>;
  const columns = atLeast(member.role, "admin")
    ? [...CONTACT_COLUMNS, { title: "Erase", cell: (c: Contact) => <button type="button" class="link danger" aria-label={`Erase contact ${c.email ?? c.name ?? c.id}`} onClick={() => setErasing(c)}>Erase contact</button>, csv: () => undefined }]
    : CONTACT_COLUMNS;
  async function erase(c: Contact) {
    const r = await api<{ data: ErasureReport }>("POST", `/console/v1/contacts/${c.id}/erase`);
    setReport(erasedText(r.data));
    setVersion((v) => v + 1);
  }
  return (
    <>
      <RecordList<Contact> version={version} agentId={props.agentId} kind="contacts" title="Contacts" columns={columns} csvExtra={CONTACT_CSV_EXTRA}
        empty="No contacts yet." actions={actions} />
      <p role="status" class="ok" aria-label="Erasure report">{report}</p>
      {importing && <ImportContacts agentId={props.agentId} onClose={() => setImporting(false)} onImported={() => setVersion((v) => v + 1)} />}
      {erasing && (
        <Confirm title="Erase contact" action="Erase for good" onClose={() => setErasing(null)} onConfirm={() => erase(erasing)}
          body={`Erase ${erasing.email ?? erasing.name ?? erasing.id} and everything of this person: their leads, conversations and messages, form submissions, bookings, return requests and webhook deliveries. This cannot be undone.`} />
      )}
    </>
  );
}

function RecordList<T extends { id: string }>(props: { agentId: string; kind: string; title: string; columns: Column<T>[]; csvExtra: Column<T>[]; empty: string; actions?: ComponentChildren; version?: number }) {
  const path = `/console/v1/agents/${props.agentId}/${props.kind}`;
  // A new `version` reads the list again from its first page.
  const paged = usePaged((cursor) => get<Page<T>>(path + query({ limit: 20, cursor })), [path, props.version]);
  const [csvState, setCsvState] = useState({ busy: false, error: "", done: "" });
  const page = paged.page;

  async function download() {
    setCsvState({ busy: true, error: "", done: "" });
    try {
      const rows = await fetchAll<T>(path);
      const cols = [...props.csvExtra, ...props.columns.filter((c) => c.title !== "Erase")];
      const day = new Date().toISOString().slice(0, 10);
      downloadCsv(`${props.kind}-${props.agentId}-${day}.csv`, toCsv(cols.map((c) => c.title), rows.map((r) => cols.map((c) => c.csv(r)))));
      setCsvState({ busy: false, error: "", done: `Downloaded ${rows.length} ${rows.length === 1 ? props.kind.slice(0, -1) : props.kind}.` });
    } catch (err) {
      setCsvState({ busy: false, error: messageOf(err), done: "" });
    }
  }

  return (
    <>
      <div class="title-row">
        <h2 id="tab-heading">{props.title}</h2>
        <button type="button" onClick={download} disabled={csvState.busy}>Download CSV</button>
        {props.actions}
        <span role="status" class="muted">{csvState.busy ? "Preparing the file…" : csvState.done}</span>
      </div>
      <ErrorText message={csvState.error || paged.error} />
      {!page && !paged.error && <Loading />}
      {page && page.data.length === 0 && <p class="empty">{props.empty}</p>}
      {page && page.data.length > 0 && (
        <table>
          <thead><tr>{props.columns.map((c) => <th scope="col">{c.title}</th>)}</tr></thead>
          <tbody>
            {page.data.map((row) => <tr key={row.id}>{props.columns.map((c) => <td>{c.cell(row)}</td>)}</tr>)}
          </tbody>
        </table>
      )}
      {page && (page.hasMore || paged.hasPrev) && (
        <Pager label={`${props.title} pages`} pageNumber={paged.pageNumber} hasPrev={paged.hasPrev} hasMore={page.hasMore} onPrev={paged.prev} onNext={paged.next} />
      )}
    </>
  );
}
