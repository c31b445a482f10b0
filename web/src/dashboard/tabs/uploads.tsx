// Files in Knowledge: "Upload files" (several at once, or dropped on the sources list), one request
// per file so each has its own progress bar, two at a time. A refused file keeps its bar and shows
// the server's reason (unsupported type, encrypted PDF, over the size limit, …).
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import type { Source } from "../types";
import { postForm, refusalOf, sizeText } from "../upload";

const AT_ONCE = 2;
// What the file picker offers; the server decides a file's type from its content.
const ACCEPT = ".pdf,.docx,.md,.markdown,.html,.htm,.txt,.csv,application/pdf,text/markdown,text/html,text/plain,text/csv," +
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

export interface UploadItem {
  key: number;
  name: string;
  size: number;
  sent: number; // bytes of the request sent
  total: number; // bytes of the whole request
  state: "waiting" | "sending" | "reading" | "added" | "refused";
  message: string;
}

// The uploads of this visit to the tab. `onAdded` runs after each file the server took.
export function useUploads(agentId: string, onAdded: () => void) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useRef<{ key: number; file: File }[]>([]);
  const running = useRef(0);
  const nextKey = useRef(1);

  const update = (key: number, change: Partial<UploadItem>) =>
    setItems((all) => all.map((it) => (it.key === key ? { ...it, ...change } : it)));

  function pump() {
    while (running.current < AT_ONCE && queue.current.length) {
      const { key, file } = queue.current.shift()!;
      running.current += 1;
      update(key, { state: "sending" });
      const form = new FormData();
      form.append("file", file, file.name);
      const upload = postForm<{ data: Source; result: string }>(`/console/v1/agents/${agentId}/sources/files`, form, (p) =>
        update(key, { sent: p.loaded, total: p.total, state: p.loaded >= p.total ? "reading" : "sending" }));
      upload.done
        .then((r) => {
          update(key, { state: "added", message: r.data.title ? `Added as “${r.data.title}”.` : "Added." });
          onAdded();
        })
        .catch((err) => update(key, { state: "refused", message: refusalOf(err) }))
        .finally(() => {
          running.current -= 1;
          pump();
        });
    }
  }

  function add(files: File[]) {
    if (!files.length) return;
    const added = files.map((file) => ({ key: nextKey.current++, file }));
    setItems((all) => [...all, ...added.map(({ key, file }) => ({ key, name: file.name, size: file.size, sent: 0, total: file.size, state: "waiting" as const, message: "" }))]);
    queue.current.push(...added);
    pump();
  }

  const clear = () => setItems((all) => all.filter((it) => it.state !== "added" && it.state !== "refused"));
  return { items, add, clear };
}

export function UploadButton(props: { onFiles(files: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} aria-describedby="upload-hint">Upload files</button>
      <input ref={input} type="file" multiple accept={ACCEPT} hidden
        onChange={(e) => {
          props.onFiles(Array.from(e.currentTarget.files ?? []));
          e.currentTarget.value = "";
        }} />
    </>
  );
}

function stateText(it: UploadItem): string {
  switch (it.state) {
    case "waiting": return "Waiting…";
    case "sending": return `Sending… ${Math.floor((100 * it.sent) / Math.max(it.total, 1))}%`;
    case "reading": return "Reading the file…";
    default: return it.message;
  }
}

export function UploadList(props: { items: UploadItem[]; onClear(): void }) {
  const { items } = props;
  if (!items.length) return null;
  const finished = items.filter((it) => it.state === "added" || it.state === "refused");
  const refused = items.filter((it) => it.state === "refused").length;
  const summary = finished.length < items.length
    ? `Uploading ${items.length} ${items.length === 1 ? "file" : "files"}: ${finished.length} finished.`
    : `Uploads finished: ${items.length - refused} added${refused ? `, ${refused} refused` : ""}.`;
  return (
    <section class="card uploads" aria-labelledby="uploads-heading">
      <div class="title-row">
        <h3 id="uploads-heading">Uploads</h3>
        {finished.length > 0 && <button type="button" class="link" onClick={props.onClear}>Clear finished uploads</button>}
      </div>
      <p role="status">{summary}</p>
      <ul>
        {items.map((it) => (
          <li key={it.key} class={"upload " + it.state}>
            <span class="strong break">{it.name}</span>
            <span class="muted small">{sizeText(it.size)}</span>
            <progress aria-label={it.name} max={Math.max(it.total, 1)} value={it.state === "added" ? Math.max(it.total, 1) : it.sent} />
            <span class={it.state === "refused" ? "error-text" : it.state === "added" ? "ok" : "muted"}>{stateText(it)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

// A drop target for files: the list under it shows a frame while files are dragged over it.
export function DropZone(props: { enabled: boolean; onFiles(files: File[]): void; children: ComponentChildren }) {
  const [over, setOver] = useState(false);
  if (!props.enabled) return <>{props.children}</>;
  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes("Files");
  return (
    <div class={"dropzone" + (over ? " over" : "")}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer!.dropEffect = "copy";
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!(e.currentTarget as HTMLElement).contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        props.onFiles(Array.from(e.dataTransfer?.files ?? []));
      }}>
      {props.children}
    </div>
  );
}
