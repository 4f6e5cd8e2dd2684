// TypeScript types from the server's JSON Schemas (docs/schemas/, written by
// `python -m tienlen.cli.schemas docs/schemas`). Run before every check and build, so a
// protocol change the client does not follow fails the type check.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const schemas = join(here, "..", "..", "docs", "schemas");
const out = join(here, "..", "src", "generated");

const files = {
  protocol_server: "ServerMessage",
  protocol_client: "ClientMessage",
  rest: "Rest",
  lobby_server: "LobbyServerMessage",
  lobby_client: "LobbyClientMessage",
  presets: "PresetRedeals",
};

// Schemas whose every property is a const are values too (presets.json: each rule preset's
// redeal_four_twos), written beside their type so the page reads them from the schema.
const values = { presets: "PRESET_REDEALS" };

// Pydantic titles every field; json-schema-to-typescript would make each a numbered alias
// (Seat14). Without them the fields' types are written inline.
function untitle(node, isDef = false) {
  if (Array.isArray(node)) return node.map((n) => untitle(n));
  if (node === null || typeof node !== "object") return node;
  const copy = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "title" && !isDef) continue;
    if (key === "$defs") {
      copy[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untitle(v, true)]));
    } else if (key === "properties") {
      copy[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, untitle(v)]));
    } else {
      copy[key] = untitle(value);
    }
  }
  return copy;
}

await mkdir(out, { recursive: true });
for (const [file, name] of Object.entries(files)) {
  const schema = untitle(JSON.parse(await readFile(join(schemas, `${file}.json`), "utf8")), true);
  schema.title = name;
  const ts = await compile(schema, name, {
    bannerComment: `/* Generated from docs/schemas/${file}.json by scripts/gen-types.mjs: do not edit. */`,
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
    format: true,
    cwd: schemas,
  });
  let value = "";
  if (file in values) {
    // In the engine's order (pydantic's `required`; the properties are sorted by name).
    const keys = schema.required ?? Object.keys(schema.properties);
    const consts = Object.fromEntries(keys.map((k) => [k, schema.properties[k].const]));
    if (Object.values(consts).some((v) => v === undefined)) throw new Error(`${file}.json: every property must be a const`);
    value = `\nexport const ${values[file]}: ${name} = ${JSON.stringify(consts, null, 2)};\n`;
  }
  await writeFile(join(out, `${file}.ts`), ts + value);
}
console.log(`types generated in ${out}`);
