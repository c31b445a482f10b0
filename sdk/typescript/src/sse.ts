// Reading a body of server-sent events (the HTML standard's event stream format): lines ended by
// CRLF, LF or CR; `event:`, `data:` (several joined by "\n") and `id:` fields; comment lines
// (": keep-alive") skipped; an event dispatched at each blank line. Bytes are decoded as UTF-8
// across chunk boundaries, so a character split between two network reads arrives whole.

export interface ServerSentEvent {
  event: string; // "message" when the event named none
  data: string;
  id?: string;
}

/** The text of a body as it arrives, decoded as UTF-8. */
export async function* readText(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  let skipLineFeed = false; // the previous piece ended with CR: a leading LF belongs to it
  for await (let piece of readText(body)) {
    if (skipLineFeed && piece.startsWith("\n")) piece = piece.slice(1);
    skipLineFeed = piece.endsWith("\r");
    buffer += piece;
    const lines = buffer.split(/\r\n|\n|\r/);
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "") {
        if (data.length > 0) yield { event: event || "message", data: data.join("\n"), ...(id !== undefined ? { id } : {}) };
        event = "";
        data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    }
  }
}
