// Reads a server-sent event stream (text/event-stream) from a fetch() response, by the HTML
// standard's parsing rules: lines end with LF, CR or CRLF; `event:` names the event (default
// "message"); `data:` lines join with LF; a blank line dispatches; lines starting with ':' are
// comments. Used where EventSource cannot go: POST requests and requests with an Authorization
// header.
export interface ServerEvent {
  event: string;
  data: string;
}

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    for (;;) {
      const m = /\r\n|\r|\n/.exec(buffer);
      if (!m) break;
      // A CR at the very end may be the first half of a CRLF still on its way.
      if (m[0] === "\r" && m.index === buffer.length - 1) break;
      const line = buffer.slice(0, m.index);
      buffer = buffer.slice(m.index + m[0].length);
      if (line === "") {
        if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
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
    }
  }
}
