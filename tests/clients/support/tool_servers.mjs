// Stand-ins for what an agent's tools reach, for the end-to-end tests (tests/e2e/agent_tools_test.cpp)
// and the client tests: one loopback HTTP server with
//   /mcp       a remote MCP server made with the official SDK (Streamable HTTP, stateful, answers
//              as event streams), tools lookup_order, failing_tool and secret_tool;
//   /mcp-json  the same server answering in JSON (enableJsonResponse);
//   /search    SearXNG's JSON API (`?q=…&format=json`), whose results point at /pages/…;
//   /brave     Brave Search's API shape (header X-Subscription-Token required);
//   /pages/tyres.html  an HTML page; /pages/missing  a 404;
//   /log       what the servers saw (tool calls with the Authorization header, searches, page reads);
//   /reset     forgets it.
// Prints {"port": N} on its first line of output once it listens on 127.0.0.1.
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

let log = { calls: [], requests: [], searches: [], pages: [] };
let port = 0;

const tools = [
  {
    name: "lookup_order",
    description: "Looks up an order by its number.",
    inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
    outputSchema: { type: "object", properties: { orderId: { type: "string" }, status: { type: "string" } } },
  },
  { name: "failing_tool", description: "Always fails.", inputSchema: { type: "object", properties: {} } },
  { name: "secret_tool", description: "Must never be called.", inputSchema: { type: "object", properties: {} } },
];

function mcpServer(auth) {
  const server = new Server({ name: "tool-servers", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    log.calls.push({ tool: name, args: args ?? {}, auth: auth() });
    if (name === "lookup_order") {
      const status = { orderId: String(args?.orderId ?? ""), status: "shipped" };
      return { content: [{ type: "text", text: `Order ${status.orderId} has shipped.` }], structuredContent: status };
    }
    if (name === "failing_tool") return { content: [{ type: "text", text: "The warehouse is closed." }], isError: true };
    return { content: [{ type: "text", text: "secret" }] };
  });
  return server;
}

const sessions = new Map();  // session id -> transport

async function handleMcp(req, res, body, json) {
  const sessionId = req.headers["mcp-session-id"];
  let transport = sessionId ? sessions.get(sessionId) : undefined;
  if (!transport) {
    if (sessionId || !(req.method === "POST" && isInitializeRequest(body))) {
      res.writeHead(sessionId ? 404 : 400, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "No such session" }, id: null }));
    }
    let lastAuth = "";
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: json,
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    transport.setAuth = (a) => { lastAuth = a; };
    transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
    await mcpServer(() => lastAuth).connect(transport);
  }
  transport.setAuth?.(req.headers["authorization"] ?? "");
  await transport.handleRequest(req, res, body);
}

function page(res, status, type, text) {
  res.writeHead(status, { "Content-Type": type });
  res.end(text);
}

const http = createServer(async (req, res) => {
  const url = new URL(req.url, `http://127.0.0.1:${port}`);
  let raw = "";
  for await (const chunk of req) raw += chunk;
  let body;
  try { body = raw ? JSON.parse(raw) : undefined; } catch { body = undefined; }
  log.requests.push({ method: req.method, path: url.pathname, auth: req.headers["authorization"] ?? "", session: req.headers["mcp-session-id"] ?? "" });
  const base = `http://127.0.0.1:${port}`;
  const results = [
    { url: `${base}/pages/tyres.html`, title: "Tyres (snippet title)", content: "A snippet about tyres." },
    { url: `${base}/pages/missing`, title: "Missing page", content: "The snippet of a page that is gone." },
  ];
  if (url.pathname === "/mcp" || url.pathname === "/mcp-json") return handleMcp(req, res, body, url.pathname === "/mcp-json");
  if (url.pathname === "/search") {
    log.searches.push({ q: url.searchParams.get("q"), format: url.searchParams.get("format") });
    return page(res, 200, "application/json", JSON.stringify({ query: url.searchParams.get("q"), results }));
  }
  if (url.pathname === "/brave") {
    log.searches.push({ q: url.searchParams.get("q"), token: req.headers["x-subscription-token"] ?? "" });
    if (req.headers["x-subscription-token"] !== "brave-token") return page(res, 401, "application/json", "{}");
    const web = { results: results.map((r) => ({ url: r.url, title: r.title, description: r.content })) };
    return page(res, 200, "application/json", JSON.stringify({ web }));
  }
  if (url.pathname === "/pages/tyres.html") {
    log.pages.push({ path: url.pathname, agent: req.headers["user-agent"] ?? "" });
    return page(res, 200, "text/html; charset=utf-8",
      "<html><head><title>Tyre guide</title></head><body><h1>Tyre guide</h1>" +
      "<p>Road tyres should be pumped to seven bar; gravel tyres to three.</p></body></html>");
  }
  if (url.pathname === "/pages/missing") { log.pages.push({ path: url.pathname }); return page(res, 404, "text/plain", "gone"); }
  if (url.pathname === "/log") return page(res, 200, "application/json", JSON.stringify(log));
  if (url.pathname === "/reset") { log = { calls: [], requests: [], searches: [], pages: [] }; return page(res, 200, "application/json", "{}"); }
  page(res, 404, "text/plain", "not found");
});

http.listen(0, "127.0.0.1", () => {
  port = http.address().port;
  process.stdout.write(JSON.stringify({ port }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
