// Converts docs/openapi.yaml to compact JSON, the form the server embeds and serves at
// GET /api/v1/openapi.json.
//
//   node tools/openapi/to-json.mjs OUTPUT.json [INPUT.yaml]
//
// INPUT defaults to the repository's docs/openapi.yaml. YAML anchors and aliases are expanded.
// The output is written beside its final path and renamed into place, so a reader never sees
// half a file. Needs the packages of tools/openapi/package.json (npm ci in tools/openapi).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const [output, input = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/openapi.yaml')] =
  process.argv.slice(2);
if (!output) {
  console.error('usage: node tools/openapi/to-json.mjs OUTPUT.json [INPUT.yaml]');
  process.exit(2);
}

let document;
try {
  document = parse(readFileSync(input, 'utf8'), { prettyErrors: true, maxAliasCount: -1 });
} catch (error) {
  console.error(`${input}: ${error.message}`);
  process.exit(1);
}
if (document === null || typeof document !== 'object' || typeof document.openapi !== 'string') {
  console.error(`${input}: not an OpenAPI document`);
  process.exit(1);
}

const target = resolve(output);
mkdirSync(dirname(target), { recursive: true });
const partial = `${target}.${process.pid}.tmp`;
writeFileSync(partial, JSON.stringify(document));
renameSync(partial, target);
