// "Import contacts": a CSV file, the mapping of its columns to contact fields (preset from the
// headers as the server would, contact_mapping.ts), the upload with its progress, and the
// server's report.
import { useEffect, useRef, useState } from "preact/hooks";
import { Dialog, ErrorText, Field, messageOf } from "../components";
import { mappingOf, presetColumns, slug, TARGETS, type Column, type Target } from "../contact_mapping";
import { parseCsv } from "../csv";
import type { ContactImport } from "../types";
import { postForm, refusalOf } from "../upload";

type Step =
  | { name: "choose"; error: string }
  | { name: "map"; file: File; columns: Column[]; error: string; at?: number }
  | { name: "sending"; file: File; columns: Column[]; sent: number; total: number }
  | { name: "report"; report: ContactImport };

export function ImportContacts(props: { agentId: string; onClose(): void; onImported(): void }) {
  const [step, setStep] = useState<Step>({ name: "choose", error: "" });
  const abort = useRef<() => void>();

  async function choose(file: File | undefined) {
    if (!file) return;
    const head = 256 * 1024;
    let records: string[][];
    try {
      records = parseCsv(await file.slice(0, head).text(), 2, file.size <= head);
    } catch (err) {
      return setStep({ name: "choose", error: messageOf(err) });
    }
    const header = records[0] ?? [];
    if (header.every((h) => h.trim() === "")) return setStep({ name: "choose", error: "The file has no header row: its first line must name the columns." });
    setStep({ name: "map", file, columns: presetColumns(header, records[1] ?? []), error: "" });
  }

  function send(file: File, columns: Column[]) {
    const { mapping, error, at } = mappingOf(columns);
    if (!mapping) return setStep({ name: "map", file, columns, error: error!, at });
    const form = new FormData();
    form.append("file", file, file.name);
    form.append("mapping", JSON.stringify(mapping));
    setStep({ name: "sending", file, columns, sent: 0, total: file.size });
    const upload = postForm<{ data: ContactImport }>(`/console/v1/agents/${props.agentId}/contacts/import`, form, (p) =>
      setStep((s) => (s.name === "sending" ? { ...s, sent: p.loaded, total: p.total } : s)));
    abort.current = upload.abort;
    upload.done.then(
      (r) => {
        setStep({ name: "report", report: r.data });
        props.onImported();
      },
      (err) => setStep({ name: "map", file, columns, error: refusalOf(err) }),
    );
  }

  function close() {
    abort.current?.();
    props.onClose();
  }

  return (
    <Dialog title="Import contacts" onClose={close} wide>
      {step.name === "choose" && (
        <>
          <Field id="import-file" label="CSV file" hint="A header row that names the columns, then one contact per row. Each contact needs an external ID or an email.">
            <input id="import-file" type="file" accept=".csv,text/csv" aria-describedby="import-file-hint"
              onChange={(e) => choose(e.currentTarget.files?.[0])} />
          </Field>
          <ErrorText message={step.error} />
          <div class="actions"><button type="button" onClick={close}>Cancel</button></div>
        </>
      )}
      {step.name === "map" && (
        <Mapping step={step} onChange={(columns) => setStep({ ...step, columns, error: "", at: undefined })}
          onImport={() => send(step.file, step.columns)} onBack={() => setStep({ name: "choose", error: "" })} onCancel={close} />
      )}
      {step.name === "sending" && (
        <>
          <p class="strong break">{step.file.name}</p>
          <progress aria-label={step.file.name} max={Math.max(step.total, 1)} value={step.sent} />
          <p role="status">{step.sent < step.total ? `Sending… ${Math.floor((100 * step.sent) / Math.max(step.total, 1))}%` : "Importing the rows…"}</p>
          <div class="actions"><button type="button" onClick={close}>Cancel</button></div>
        </>
      )}
      {step.name === "report" && <Report report={step.report} onDone={props.onClose} />}
    </Dialog>
  );
}

function Mapping(props: { step: Extract<Step, { name: "map" }>; onChange(columns: Column[]): void; onImport(): void; onBack(): void; onCancel(): void }) {
  const { columns, error, at } = props.step;
  const table = useRef<HTMLTableElement>(null);
  useEffect(() => table.current?.querySelector("select")?.focus(), []);
  const change = (i: number, part: Partial<Column>) => props.onChange(columns.map((c, j) => (j === i ? { ...c, ...part } : c)));
  return (
    <>
      <p>Choose what each column of <span class="strong break">{props.step.file.name}</span> becomes. Rows are imported one by one; a refused row changes nothing.</p>
      <table ref={table} class="mapping">
        <thead><tr><th scope="col">Column</th><th scope="col">First row</th><th scope="col">Imported as</th></tr></thead>
        <tbody>
          {columns.map((c, i) => (
            <tr key={i}>
              <th scope="row"><label for={`map-${i}`}>{c.header || `Column ${i + 1} (no name)`}</label></th>
              <td class="break">{c.sample || <span class="muted">—</span>}</td>
              <td>
                <select id={`map-${i}`} value={c.target} aria-invalid={at === i && c.target !== "attribute" ? true : undefined}
                  onChange={(e) => change(i, { target: e.currentTarget.value as Target, attribute: c.attribute || slug(c.header) })}>
                  {TARGETS.map(([value, label]) => <option value={value}>{label}</option>)}
                </select>
                {c.target === "attribute" && (
                  <input class="mono" value={c.attribute} aria-label={`Attribute name for ${c.header || `column ${i + 1}`}`} spellcheck={false}
                    aria-invalid={at === i ? true : undefined} aria-describedby={at === i ? "import-error" : undefined}
                    onInput={(e) => change(i, { attribute: e.currentTarget.value.trim() })} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorText id="import-error" message={error} />
      <div class="actions">
        <button type="button" class="primary" onClick={props.onImport}>Import</button>
        <button type="button" onClick={props.onBack}>Choose another file</button>
        <button type="button" onClick={props.onCancel}>Cancel</button>
      </div>
    </>
  );
}

function Report(props: { report: ContactImport; onDone(): void }) {
  const r = props.report;
  const summary = useRef<HTMLParagraphElement>(null);
  useEffect(() => summary.current?.focus(), []);
  const counts: [string, number][] = [["Created", r.created], ["Updated", r.updated], ["Unchanged", r.unchanged], ["Refused", r.refused]];
  return (
    <>
      <p role="status" ref={summary} tabIndex={-1}>Import finished: {r.rows.toLocaleString()} {r.rows === 1 ? "row" : "rows"} read.</p>
      <dl class="facts" aria-label="Import report">
        {counts.map(([label, n]) => <div key={label}><dt>{label}</dt><dd>{n.toLocaleString()}</dd></div>)}
      </dl>
      {r.errors.length > 0 && (
        <div class="scroll" tabIndex={0} role="region" aria-label="Refused rows">
          <table>
            <caption>Refused rows{r.refused > r.errors.length ? ` (the first ${r.errors.length.toLocaleString()})` : ""}</caption>
            <thead><tr><th scope="col">Row</th><th scope="col">Reason</th></tr></thead>
            <tbody>
              {r.errors.map((e) => <tr key={e.row}><td class="num">{e.row}</td><td>{e.message}</td></tr>)}
            </tbody>
          </table>
        </div>
      )}
      {r.errors.length > 0 && <p class="hint">Rows are numbered as in a spreadsheet: the header is row 1.</p>}
      <div class="actions"><button type="button" class="primary" onClick={props.onDone}>Done</button></div>
    </>
  );
}
