// A stand-in of Notion's public API (version 2022-06-28) for the dashboard's browser tests, on a
// free port of 127.0.0.1, following its documented shapes: GET /v1/users/me (the integration's
// bot and its workspace_name), POST /v1/search (the shared pages, one list), GET /v1/pages/{id},
// GET /v1/blocks/{id}/children (paragraph and heading blocks). Requests need the known bearer
// token (else 401 unauthorized, as Notion answers); an unknown page is 404 object_not_found.
// Start Parley with --notion-api-url pointing here.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakePage {
  id: string; // a UUID, as Notion writes ids
  title: string;
  heading: string;
  paragraphs: string[];
}

const richText = (text: string) => [{ type: "text", text: { content: text, link: null }, plain_text: text, href: null }];

export async function fakeNotion(token: string, workspaceName: string, pages: FakePage[]): Promise<{ url: string; close(): Promise<void> }> {
  const edited = "2026-01-05T10:00:00.000Z";
  const pageObject = (p: FakePage) => ({
    object: "page", id: p.id, created_time: edited, last_edited_time: edited, archived: false, in_trash: false,
    url: `https://www.notion.so/${p.title.replace(/\W+/g, "-")}-${p.id.replace(/-/g, "")}`,
    parent: { type: "workspace", workspace: true },
    properties: { title: { id: "title", type: "title", title: richText(p.title) } },
  });
  const block = (id: string, type: string, text: string) => ({ object: "block", id, type, has_children: false, archived: false, [type]: { rich_text: richText(text) } });
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: string, message: string) => answer(res, status, { object: "error", status, code, message });

  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.headers.authorization !== `Bearer ${token}`) return error(res, 401, "unauthorized", "API token is invalid.");
      const path = new URL(req.url ?? "/", "http://notion").pathname;
      const find = (id: string) => pages.find((p) => p.id.replace(/-/g, "") === id.replace(/-/g, "").toLowerCase());
      let m: RegExpExecArray | null;
      if (req.method === "GET" && path === "/v1/users/me") {
        return answer(res, 200, { object: "user", id: "9a3f1c2e-0000-4000-8000-000000000001", type: "bot", name: "Parley", bot: { owner: { type: "workspace", workspace: true }, workspace_name: workspaceName } });
      }
      if (req.method === "POST" && path === "/v1/search") {
        return answer(res, 200, { object: "list", results: pages.map(pageObject), next_cursor: null, has_more: false, type: "page_or_database", page_or_database: {} });
      }
      if (req.method === "GET" && (m = /^\/v1\/pages\/([\w-]+)$/.exec(path))) {
        const p = find(m[1]);
        return p ? answer(res, 200, pageObject(p)) : error(res, 404, "object_not_found", `Could not find page with ID: ${m[1]}.`);
      }
      if (req.method === "GET" && (m = /^\/v1\/blocks\/([\w-]+)\/children$/.exec(path))) {
        const p = find(m[1]);
        if (!p) return error(res, 404, "object_not_found", `Could not find block with ID: ${m[1]}.`);
        const blocks = [block(`${p.id.slice(0, -4)}b000`, "heading_1", p.heading), ...p.paragraphs.map((t, i) => block(`${p.id.slice(0, -4)}b${String(i + 1).padStart(3, "0")}`, "paragraph", t))];
        return answer(res, 200, { object: "list", results: blocks, next_cursor: null, has_more: false, type: "block", block: {} });
      }
      error(res, 400, "invalid_request_url", "Invalid request URL.");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}
