// The Activity's page, built into the bot's package (bot/web/static/activity, never committed): the bot
// serves it at /activity/, Discord's proxy at the Activity's root, so every path in it is relative.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// The API's field names are the bot's models' (bot/web/api.py), never kept by hand here: the build reads the
// schema the bot serves and refuses a page that reads or sends a field no model has (see src/main.js).
const PRINT = "import json; from bot.web.api import schema; print(json.dumps(schema()))";

function apiSchema() {
  return {
    name: "api-schema",
    buildStart() {
      const python = process.env.PYTHON || "python3";
      const schema = JSON.parse(execFileSync(python, ["-c", PRINT], { cwd: ROOT, encoding: "utf8" }));
      const source = readFileSync(new URL("./src/main.js", import.meta.url), "utf8");
      const unknown = unknownFields(schema, source);
      if (unknown.length) this.error(`fields the API does not have: ${unknown.join(", ")}`);
    },
  };
}

export function unknownFields(schema, source) {
  const binding = /^\/\/ @api (.+)$/m.exec(source);
  if (!binding) return ["(no @api line)"];
  const fields = new Map();
  for (const part of binding[1].split(",")) {
    const [name, models] = part.split(":").map((x) => x.trim());
    const known = new Set();
    for (const model of models.split(/\s+/)) {
      for (const field of Object.keys(schema.$defs[model]?.properties ?? {})) known.add(field);
    }
    fields.set(name, known);
  }
  const out = [];
  for (const [, name, field] of source.matchAll(/\b([a-z]+)\.([a-z_]+)\b/g)) {
    if (fields.has(name) && !fields.get(name).has(field)) out.push(`${name}.${field}`);
  }
  return out;
}

export default defineConfig({
  base: "./",
  plugins: [apiSchema()],
  build: {
    outDir: "../bot/web/static/activity",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2020",
    reportCompressedSize: false,
  },
});
