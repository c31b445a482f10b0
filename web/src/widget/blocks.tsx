// What a reply carries besides its text: sources, suggested questions, link buttons, product
// cards, a chat form, the contact-details form and meeting slots (ChatReply in docs/openapi.yaml).
import { useState } from "preact/hooks";
import type { JSX } from "preact";
import type { Blocks, Booking, ChatForm, FormField, LeadForm, Product } from "./api";
import { describeError } from "./api";
import { safeImageUrl } from "../shared/url";
import { Link, safeUrl } from "./text";

export interface BlockActions {
  send(text: string): void;
  // Posts to /widget/v1/conversations/{id}/{kind} with the visitor id added.
  submit(kind: "form" | "contact" | "booking", body: object): Promise<void>;
  busy: boolean;
}

export function ReplyBlocks({ blocks, actions, last }: { blocks: Blocks; actions: BlockActions; last: boolean }) {
  const sources = blocks.sources ?? [];
  const followUps = blocks.followUps ?? [];
  const buttons = (blocks.buttons ?? []).filter((b) => safeUrl(b.url));
  const products = (blocks.products ?? []).filter((p) => safeUrl(p.url));
  return (
    <>
      {sources.length > 0 && (
        <div class="sources">
          <span class="label">Sources</span>
          <ul>
            {sources.map((s) => (
              <li>
                <Link href={s.url}>{s.title || s.url || "Source"}</Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      {buttons.length > 0 && (
        <ul class="links" aria-label="Links">
          {buttons.map((b) => (
            <li>
              <Link class="linkbtn" href={b.url}>
                {b.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {products.length > 0 && (
        <ul class="products" aria-label="Products">
          {products.map((p) => (
            <ProductCard product={p} />
          ))}
        </ul>
      )}
      {blocks.form && <FormBlock form={blocks.form} actions={actions} />}
      {blocks.leadForm && <LeadFormBlock lead={blocks.leadForm} actions={actions} />}
      {blocks.booking && <BookingBlock booking={blocks.booking} actions={actions} />}
      {last && blocks.liveChat === "offered" && (
        <div class="chips">
          <button type="button" class="chip" disabled={actions.busy} onClick={() => actions.send("Yes, please")}>
            Yes, please
          </button>
        </div>
      )}
      {last && followUps.length > 0 && (
        <div class="chips" role="group" aria-label="Suggested questions">
          {followUps.map((q) => (
            <button type="button" class="chip" disabled={actions.busy} onClick={() => actions.send(q)}>
              {q}
            </button>
          ))}
        </div>
      )}
    </>
  );
}

function money(amount: number, currency?: string): string {
  if (currency) {
    try {
      return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount);
    } catch {
      return `${amount.toFixed(2)} ${currency}`;
    }
  }
  return amount.toFixed(2);
}

function ProductCard({ product: p }: { product: Product }) {
  const image = safeImageUrl(p.image);
  return (
    <li class="product">
      {image && <img src={image} alt="" loading="lazy" referrerpolicy="no-referrer" />}
      <div class="product-body">
        <Link class="product-name" href={p.url}>
          {p.name}
        </Link>
        {typeof p.price === "number" && (
          <span class="price">
            {money(p.price, p.currency)}
            {typeof p.compareAtPrice === "number" && p.compareAtPrice > p.price && (
              <>
                {" "}
                <s>
                  <span class="sr">was </span>
                  {money(p.compareAtPrice, p.currency)}
                </s>
              </>
            )}
          </span>
        )}
        {p.available === false && <span class="stock">Out of stock</span>}
      </div>
    </li>
  );
}

// Submission state shared by the three forms: the error shown, and the thanks once sent.
function useSubmission(actions: BlockActions) {
  const [state, setState] = useState<{ sending: boolean; error: string; sent: boolean }>({ sending: false, error: "", sent: false });
  const run = async (kind: "form" | "contact" | "booking", body: object) => {
    setState({ sending: true, error: "", sent: false });
    try {
      await actions.submit(kind, body);
      setState({ sending: false, error: "", sent: true });
    } catch (err) {
      setState({ sending: false, error: describeError(err), sent: false });
    }
  };
  return { ...state, run, fail: (error: string) => setState({ sending: false, error, sent: false }) };
}

function inputType(type: string | undefined): string {
  switch ((type ?? "text").toLowerCase()) {
    case "email":
      return "email";
    case "phone":
    case "tel":
      return "tel";
    case "number":
      return "number";
    case "date":
      return "date";
    case "url":
      return "url";
    case "checkbox":
    case "boolean":
      return "checkbox";
    default:
      return "text";
  }
}

function Field({ field, name }: { field: FormField; name: string }) {
  const label = field.label || field.id;
  const type = (field.type ?? "").toLowerCase();
  const options = Array.isArray(field.options) ? field.options.map(String) : null;
  if (options && (type === "select" || type === "dropdown" || type === "")) {
    return (
      <label class="field">
        <span>{label}</span>
        <select name={name} required={!!field.required}>
          <option value="">Choose…</option>
          {options.map((o) => (
            <option value={o}>{o}</option>
          ))}
        </select>
      </label>
    );
  }
  if (type === "textarea" || type === "long_text" || type === "paragraph") {
    return (
      <label class="field">
        <span>{label}</span>
        <textarea name={name} rows={3} required={!!field.required} />
      </label>
    );
  }
  const t = inputType(type);
  if (t === "checkbox") {
    return (
      <label class="check">
        <input type="checkbox" name={name} required={!!field.required} />
        <span>{label}</span>
      </label>
    );
  }
  return (
    <label class="field">
      <span>
        {label}
        {field.required ? "" : " (optional)"}
      </span>
      <input type={t} name={name} required={!!field.required} />
    </label>
  );
}

// The values of a configured form's fields, as [{id, value}].
function valuesOf(form: HTMLFormElement, fields: FormField[], prefix: string): { id: string; value: unknown }[] {
  return fields.map((f) => {
    const el = form.elements.namedItem(prefix + f.id) as HTMLInputElement | null;
    const value = !el ? null : el.type === "checkbox" ? el.checked : el.value;
    return { id: f.id, value };
  });
}

function Status({ error, sent, thanks }: { error: string; sent: boolean; thanks: string }) {
  return (
    <>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      {sent && (
        <p class="form-done" role="status">
          {thanks}
        </p>
      )}
    </>
  );
}

function FormBlock({ form, actions }: { form: ChatForm; actions: BlockActions }) {
  const s = useSubmission(actions);
  const fields = Array.isArray(form.fields) ? form.fields.filter((f) => f && typeof f.id === "string") : [];
  const onSubmit = (e: JSX.TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    void s.run("form", { formId: form.formId, fields: valuesOf(e.currentTarget, fields, "f_") });
  };
  if (s.sent) return <Status error="" sent thanks="Thank you, your answers were sent." />;
  return (
    <form class="card" onSubmit={onSubmit} aria-label={form.name || "Form"}>
      {form.name && <p class="card-title">{form.name}</p>}
      {fields.map((f) => (
        <Field field={f} name={"f_" + f.id} />
      ))}
      <button type="submit" class="primary" disabled={s.sending}>
        {form.submitLabel || "Submit"}
      </button>
      <Status error={s.error} sent={false} thanks="" />
    </form>
  );
}

const contactLabels = { name: "Name", email: "Email", phone: "Phone" } as const;
const contactTypes = { name: "text", email: "email", phone: "tel" } as const;

function LeadFormBlock({ lead, actions }: { lead: LeadForm; actions: BlockActions }) {
  const s = useSubmission(actions);
  const fields = (lead.fields?.length ? lead.fields : (["name", "email"] as const)).filter((f) => f in contactLabels);
  const extra = lead.form && Array.isArray(lead.form.fields) ? lead.form.fields.filter((f) => f && typeof f.id === "string") : [];
  const onSubmit = (e: JSX.TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    const el = e.currentTarget;
    const value = (n: string) => ((el.elements.namedItem("c_" + n) as HTMLInputElement | null)?.value ?? "").trim();
    const body: Record<string, unknown> = {};
    for (const f of fields) if (value(f)) body[f] = value(f);
    if (!body.email && !body.phone) {
      s.fail(fields.includes("phone") ? "Please enter your email address or phone number." : "Please enter your email address.");
      return;
    }
    if (lead.form) {
      body.formId = lead.form.formId;
      body.customFields = valuesOf(el, extra, "x_");
    }
    void s.run("contact", body);
  };
  if (s.sent) return <Status error="" sent thanks="Thank you, we will be in touch." />;
  return (
    <form class="card" onSubmit={onSubmit} aria-label="Contact details">
      {lead.message && <p class="card-title">{lead.message}</p>}
      {fields.map((f) => (
        <label class="field">
          <span>{contactLabels[f]}</span>
          <input type={contactTypes[f]} name={"c_" + f} autocomplete={f === "phone" ? "tel" : f} />
        </label>
      ))}
      {extra.map((f) => (
        <Field field={f} name={"x_" + f.id} />
      ))}
      <button type="submit" class="primary" disabled={s.sending}>
        {lead.form?.submitLabel || "Send my details"}
      </button>
      <Status error={s.error} sent={false} thanks="" />
    </form>
  );
}

function dayLabel(date: string): string {
  const d = new Date(date + "T12:00:00Z");
  if (isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" }).format(d);
}

function timeLabel(iso: string, timeZone: string, withDay = false): string {
  const d = new Date(iso);
  const opts: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };
  if (withDay) Object.assign(opts, { weekday: "long", month: "long", day: "numeric" });
  try {
    return new Intl.DateTimeFormat(undefined, { ...opts, timeZone }).format(d);
  } catch {
    return new Intl.DateTimeFormat(undefined, opts).format(d);
  }
}

function BookingBlock({ booking, actions }: { booking: Booking; actions: BlockActions }) {
  const days = (booking.days ?? []).filter((d) => d.slots?.length);
  const [day, setDay] = useState(0);
  const [slot, setSlot] = useState<string | null>(null);
  const s = useSubmission(actions);
  const title = booking.eventTitle || "Meeting";
  if (s.sent && slot) return <Status error="" sent thanks={`Booked: ${title}, ${timeLabel(slot, booking.timeZone, true)}.`} />;
  if (days.length === 0)
    return (
      <div class="card">
        <p class="card-title">No free times are available at the moment.</p>
      </div>
    );
  const onSubmit = (e: JSX.TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!slot) {
      s.fail("Please choose a time.");
      return;
    }
    const el = e.currentTarget;
    const value = (n: string) => ((el.elements.namedItem(n) as HTMLInputElement | null)?.value ?? "").trim();
    const body: Record<string, unknown> = { startAt: slot, timeZone: booking.timeZone };
    if (value("b_name")) body.name = value("b_name");
    if (value("b_email")) body.email = value("b_email");
    void s.run("booking", body);
  };
  const current = days[Math.min(day, days.length - 1)];
  return (
    <form class="card" onSubmit={onSubmit} aria-label={`Book: ${title}`}>
      <p class="card-title">
        {title} ({booking.eventLength} min)
      </p>
      <div class="chips" role="group" aria-label="Day">
        {days.map((d, i) => (
          <button type="button" class="chip" aria-pressed={i === day} onClick={() => { setDay(i); setSlot(null); }}>
            {dayLabel(d.date)}
          </button>
        ))}
      </div>
      <div class="chips" role="group" aria-label="Time">
        {current.slots.map((t) => (
          <button type="button" class="chip" aria-pressed={t === slot} onClick={() => setSlot(t)}>
            {timeLabel(t, booking.timeZone)}
          </button>
        ))}
      </div>
      <label class="field">
        <span>Name (optional)</span>
        <input type="text" name="b_name" autocomplete="name" />
      </label>
      <label class="field">
        <span>Email (optional)</span>
        <input type="email" name="b_email" autocomplete="email" />
      </label>
      <button type="submit" class="primary" disabled={s.sending}>
        Book
      </button>
      <Status error={s.error} sent={false} thanks="" />
    </form>
  );
}
