// A real Parley server for one browser test file: the built binary (build/parley, or
// $PARLEY_BINARY) on a fresh SQLite database in a temporary folder (or, when
// $PARLEY_TEST_POSTGRES_URL names a cluster as scripts/pg-cluster.sh prints it, a fresh database
// there, dropped at the end), on a free port, with an account, an owner who signs in with a
// password, and an agent. `admin` runs `parley admin` on the
// same database. Test web sites on made-up host names (*.test, mapped to this machine by the
// browser's host-resolver rules in playwright.config.ts) are served by `site`; sites for the server
// itself to read (a crawl) by `siteOf`.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import type { Page } from "@playwright/test";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const binary = process.env.PARLEY_BINARY ?? fileURLToPath(new URL("../../build/parley", import.meta.url));

export interface Parley {
  url: string; // http://127.0.0.1:PORT
  port: number;
  dataDir: string;
  accountId: string;
  agentId: string;
  email: string;
  password: string;
  admin(...args: string[]): any;
  stop(): Promise<void>;
}

// On PostgreSQL: a new database on the cluster, migrated, and how to drop it.
function postgresDatabase(cluster: string, env: NodeJS.ProcessEnv): { url: string; drop(): void } {
  const name = "browser_" + randomBytes(6).toString("hex");
  const psql = (sql: string) => execFileSync("/usr/bin/psql", [cluster, "-qAtX", "-v", "ON_ERROR_STOP=1", "-c", sql], { stdio: "pipe" });
  psql(`CREATE DATABASE ${name}`);
  const url = cluster.slice(0, cluster.lastIndexOf("/") + 1) + name;
  execFileSync(binary, ["migrate"], { env: { ...env, PARLEY_DATABASE_URL: url }, stdio: "pipe" });
  return { url, drop: () => psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function startParley(options: { agentSettings?: object; agentName?: string; serveArgs?: string[] } = {}): Promise<Parley> {
  const dataDir = mkdtempSync(join(tmpdir(), "parley-browser-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PARLEY_DATA_DIR: dataDir };
  const cluster = process.env.PARLEY_TEST_POSTGRES_URL;
  const postgres = cluster ? postgresDatabase(cluster, env) : null;
  if (postgres) {
    env.PARLEY_DATABASE_URL = postgres.url;
    // Nodes sharing PostgreSQL make up no secret key (workspace tokens); the test brings one.
    env.PARLEY_SECRET_KEY ??= randomBytes(32).toString("base64");
  }
  const admin = (...args: string[]) => JSON.parse(execFileSync(binary, ["admin", ...args], { env, encoding: "utf8" }));
  const account = admin("account", "create", "--name", "Acme", "--plan", "pro");
  const email = "owner@acme.test";
  const password = "correct horse battery";
  admin("member", "create", "--account", account.id, "--email", email, "--role", "owner", "--name", "Olivia Owner", "--password", password);
  const agentArgs = ["agent", "create", "--account", account.id, "--name", options.agentName ?? "Acme Support"];
  if (options.agentSettings) agentArgs.push("--settings", JSON.stringify(options.agentSettings));
  const agent = admin(...agentArgs);

  const child: ChildProcess = spawn(binary, ["serve", "--listen", "127.0.0.1:0", ...(options.serveArgs ?? [])], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const port = await new Promise<number>((ok, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error("parley did not start: " + seen)), 15_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /"msg":"listening","address":"[^"]*:(\d+)"/.exec(seen);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    child.on("exit", (code) => fail(new Error(`parley exited (${code}): ${seen}`)));
  });
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    accountId: account.id,
    agentId: agent.id,
    email,
    password,
    admin,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((ok) => (child.exitCode !== null ? ok(null) : child.once("exit", ok)));
      rmSync(dataDir, { recursive: true, force: true });
      postgres?.drop();
    },
  };
}

// Opens the dashboard at `#hash` and signs in as the account's owner; returns once signed in.
export async function signIn(page: Page, parley: Parley, hash = "/") {
  await page.goto(`${parley.url}/#${hash}`);
  await page.getByLabel("Email").fill(parley.email);
  await page.getByLabel("Password").fill(parley.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

// Serves `html` at every path on a free port; open it as http://<any>.test:PORT/.
export async function site(html: string): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

// What a test site answers at one path: a page of HTML, a body of another type or status, or a
// function that answers (or holds the answer back).
export type SitePage = string | { status?: number; type?: string; body: string | Buffer } | ((res: ServerResponse) => void);

// Serves `pages` by path on a free port of 127.0.0.1, and 404 elsewhere; for the Parley server to
// crawl (start it with --webhook-allow-private-targets). `close` also ends answers held back.
export async function siteOf(pages: Record<string, SitePage>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? "/", "http://site").pathname];
    if (typeof page === "function") return page(res);
    if (page === undefined) {
      res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" });
      return res.end("<!doctype html><title>Not found</title><h1>Not found</h1>");
    }
    const { status = 200, type = "text/html; charset=utf-8", body } = typeof page === "string" ? { body: page } : page;
    res.writeHead(status, { "Content-Type": type });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}
