// Small shared pieces: loading hooks, cursor paging, error text, badges, times, a confirm dialog.
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api";
import type { Page } from "./types";

export const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err));

// Runs `load` when deps change; `reload` runs it again. Answers of stale runs are dropped.
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState("");
  const run = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++run.current;
    try {
      const value = await load();
      if (mine === run.current) {
        setData(value);
        setError("");
      }
    } catch (err) {
      if (mine === run.current) setError(messageOf(err));
    }
  }, deps);
  useEffect(() => {
    setData(undefined);
    reload();
  }, [reload]);
  return { data, error, reload, setData };
}

// Cursor paging: keeps the cursors of the pages before this one for "Previous page".
export function usePaged<T>(fetchPage: (cursor?: string) => Promise<Page<T>>, deps: unknown[]) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  useEffect(() => setCursors([undefined]), deps);
  const cursor = cursors[cursors.length - 1];
  const { data, error } = useLoad(() => fetchPage(cursor), [...deps, cursor]);
  return {
    page: data,
    error,
    pageNumber: cursors.length,
    hasPrev: cursors.length > 1,
    next: () => data?.nextCursor && setCursors([...cursors, data.nextCursor]),
    prev: () => setCursors(cursors.slice(0, -1)),
  };
}

export function Pager(props: { pageNumber: number; hasPrev: boolean; hasMore: boolean; onPrev(): void; onNext(): void; label: string }) {
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" onClick={props.onPrev} disabled={!props.hasPrev}>Previous page</button>
      <span>Page {props.pageNumber}</span>
      <button type="button" onClick={props.onNext} disabled={!props.hasMore}>Next page</button>
    </nav>
  );
}

export function ErrorText(props: { message: string; id?: string }) {
  return props.message ? <div role="alert" id={props.id} class="error">{props.message}</div> : null;
}

export function Loading() {
  return <p class="muted" role="status">Loading…</p>;
}

export function Badge(props: { kind?: string; children: ComponentChildren; label?: string }) {
  return <span class={"badge " + (props.kind ?? "")} title={props.label}>{props.children}</span>;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
export function Time(props: { at: string | null | undefined }) {
  if (!props.at) return <span class="muted">—</span>;
  return <time dateTime={props.at}>{dateTime.format(new Date(props.at))}</time>;
}

// A modal <dialog> opened as soon as it renders; Escape or Close calls onClose.
export function Dialog(props: { title: string; onClose(): void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    if (!d.open) d.showModal();
    return () => {
      if (d.open) d.close();
      // Back to the control that opened it, or the page's main area when that control is gone.
      if (opener?.isConnected) opener.focus();
      else document.getElementById("main")?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} class={props.wide ? "wide" : undefined} aria-labelledby="dialog-title" onCancel={(e) => { e.preventDefault(); props.onClose(); }}>
      <h2 id="dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}

export function Confirm(props: { title: string; body: string; action: string; onConfirm(): Promise<void>; onClose(): void }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <p>{props.body}</p>
      <ErrorText message={error} />
      <div class="actions">
        <button type="button" class="danger" onClick={confirm} disabled={busy}>{props.action}</button>
        <button type="button" onClick={props.onClose}>Cancel</button>
      </div>
    </Dialog>
  );
}

// A field with its label above and an optional hint under it.
export function Field(props: { id: string; label: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && <p class="hint" id={props.id + "-hint"}>{props.hint}</p>}
    </div>
  );
}
