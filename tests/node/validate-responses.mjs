// Checks every response the end-to-end tests received against docs/openapi.yaml: the operation
// its method and path name exists, the status is declared for it, and a JSON body matches the
// declared schema (JSON Schema 2020-12, as OpenAPI 3.1 uses it).
//
//   node validate-responses.mjs OPENAPI.yaml DIR...
//
// Each DIR holds the JSON lines tests/e2e/harness.cpp writes when PARLEY_TEST_RESPONSE_LOG names
// it: {method, path, status, contentType, body, test}. Exit code 0 when every response matches.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse } from "yaml";

const [docPath, ...dirs] = process.argv.slice(2);
const doc = parse(readFileSync(docPath, "utf8"), { maxAliasCount: -1 });
const base = "https://parley.invalid/openapi.json";
// OpenAPI's own keywords (discriminator, example, x-…) are not JSON Schema's: not strict.
const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: false });
addFormats(ajv);
ajv.addSchema({ ...doc, $id: base });

// Path templates, literal segments before parameters where both match.
const routes = Object.entries(doc.paths).map(([template, item]) => {
  const pattern = template
    .split("/")
    .map((seg) => (/^\{[^}]+\}$/.test(seg) ? "[^/]+" : seg.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("/");
  return { template, item, re: new RegExp(`^${pattern}$`), literal: template.replace(/\{[^}]+\}/g, "").length };
});
function route(path) {
  const bare = path.split("?")[0];
  const found = routes.filter((r) => r.re.test(bare));
  found.sort((a, b) => b.literal - a.literal);
  return found[0];
}

const pointer = (segments) => "#/" + segments.map((s) => encodeURIComponent(String(s).replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");
function resolve(object, segments) {
  // A response given as a $ref into components.
  while (object && object.$ref) {
    segments = object.$ref.replace(/^#\//, "").split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    object = segments.reduce((o, s) => o?.[s], doc);
  }
  return [object, segments];
}
const validators = new Map();
function validator(segments) {
  const key = pointer(segments);
  if (!validators.has(key)) validators.set(key, ajv.compile({ $ref: base + key }));
  return validators.get(key);
}

let checked = 0;
const failures = new Map();  // one line per kind of mismatch, with its first example
function fail(kind, r, detail) {
  if (!failures.has(kind)) failures.set(kind, { count: 0, example: `${r.test}: ${r.method} ${r.path} → ${r.status}: ${detail}` });
  failures.get(kind).count++;
}

function check(r) {
  checked++;
  const found = route(r.path);
  const method = r.method === "HEAD" ? "get" : r.method.toLowerCase();
  let segments;
  let response;
  if (found && found.item[method]) {
    const responses = found.item[method].responses;
    const status = String(r.status);
    const name = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : "default";
    if (!(name in responses)) return fail(`${r.method} ${found.template} ${status}: status not declared`, r, "");
    [response, segments] = resolve(responses[name], ["paths", found.template, method, "responses", name]);
  } else if (r.status >= 400) {
    // Not an operation (an unknown path or method): the HTTP layer's error, in the Error shape.
    [response, segments] = [{ content: { "application/json": { schema: {} } } }, ["components", "schemas", "Error"]];
  } else {
    return fail(`${r.method} ${r.path.split("?")[0]}: no such operation`, r, "");
  }
  if (r.method === "HEAD" || r.body === "") return;
  const media = (r.contentType || "").split(";")[0].trim().toLowerCase();
  const content = response.content || {};
  if (!(media in content)) return fail(`${r.method} ${found?.template} ${r.status}: ${media || "no content type"} not declared`, r, r.body.slice(0, 120));
  if (media !== "application/json" || !content[media].schema) return;
  let body;
  try {
    body = JSON.parse(r.body);
  } catch {
    return fail(`${r.method} ${found?.template} ${r.status}: body is not JSON`, r, r.body.slice(0, 120));
  }
  const validate = found && found.item[method] ? validator([...segments, "content", media, "schema"]) : validator(segments);
  if (!validate(body)) {
    const e = validate.errors[0];
    fail(`${r.method} ${found?.template ?? "(no operation)"} ${r.status}: ${e.instancePath || "/"} ${e.message}`, r,
         `${JSON.stringify(e.params)}; body ${r.body.slice(0, 300)}`);
  }
}

for (const dir of dirs) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      if (line.trim() !== "") check(JSON.parse(line));
    }
  }
}
for (const [kind, { count, example }] of failures) console.error(`mismatch (${count}×) ${kind}\n    e.g. ${example}`);
const mismatched = [...failures.values()].reduce((n, f) => n + f.count, 0);
console.log(`validate-responses: ${checked} responses checked against ${docPath}; ${mismatched} mismatched`);
process.exit(checked > 0 && mismatched === 0 ? 0 : 1);
