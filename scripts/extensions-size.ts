// npm run size:extensions — builds each admin UI extension offline the way `shopify app build`
// does and prints its size, raw and compressed. Shopify refuses to deploy an extension whose
// compressed JS is 64 KB or more; the CLI reports brotli (quality 11), so that is the measure here.
//
// The build copies the CLI's esbuild options (bundle, minify, automatic JSX, target es6, no legal
// comments, NODE_ENV=production) and its entry: the module the toml names for the target,
// default-exported and wrapped in `shopify.extend(target, ...)`. JSX goes to Preact, as each
// extension's tsconfig says. It also fails when anything from app/ lands in a bundle: the
// extensions share only types with the app.
//
// Last line: `RESULT extensions order-label-action=<n> bulk-label-action=<n> order-label-print=<n>
// bulk-label-print=<n>` (brotli bytes). Exits 1 when one is at the limit or pulls in app code.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const EXTENSIONS = ["order-label-action", "bulk-label-action", "order-label-print", "bulk-label-print"] as const;
const LIMIT = 64 * 1024;

/** The first `[[extensions.targeting]]` block's module and target. */
function readTargeting(toml: string): { module: string; target: string } {
  const block = toml.split("[[extensions.targeting]]")[1] ?? "";
  const module = /^\s*module\s*=\s*"([^"]+)"/m.exec(block)?.[1];
  const target = /^\s*target\s*=\s*"([^"]+)"/m.exec(block)?.[1];
  if (!module || !target) throw new Error("shopify.extension.toml has no [[extensions.targeting]] module and target");
  return { module, target };
}

type Measured = { name: string; raw: number; brotli: number; gzip: number; appInputs: string[] };

async function measure(name: string): Promise<Measured> {
  const dir = join(root, "extensions", name);
  const { module, target } = readTargeting(readFileSync(join(dir, "shopify.extension.toml"), "utf8"));
  const result = await build({
    stdin: {
      contents: `import Target_0 from ${JSON.stringify(module)};\nshopify.extend(${JSON.stringify(target)}, (...args) => Target_0(...args));`,
      resolveDir: dir,
      sourcefile: "entry.tsx",
      loader: "tsx",
    },
    absWorkingDir: dir,
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
    target: "es6",
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "none",
    loader: { ".esnext": "ts", ".js": "jsx" },
    resolveExtensions: [".tsx", ".ts", ".js", ".json", ".esnext", ".mjs"],
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild wrote nothing for ${name}`);
  const code = Buffer.from(output.contents);
  const appInputs = Object.keys(result.metafile.inputs)
    .map((input) => relative(root, resolve(dir, input)))
    .filter((input) => input.startsWith(`app/`));
  return {
    name,
    raw: code.length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    gzip: gzipSync(code, { level: 9 }).length,
    appInputs,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const results: Measured[] = [];
for (const name of EXTENSIONS) results.push(await measure(name));

let failed = false;
for (const r of results) {
  console.log(
    `${r.name.padEnd(20)} raw ${String(r.raw).padStart(7)} B (${kb(r.raw)})  brotli ${String(r.brotli).padStart(6)} B (${kb(r.brotli)})  gzip ${String(r.gzip).padStart(6)} B`,
  );
  if (r.brotli >= LIMIT) {
    console.log(`  ${r.name}: ${r.brotli} B compressed is at or over Shopify's ${LIMIT} B limit`);
    failed = true;
  }
  if (r.appInputs.length > 0) {
    console.log(`  ${r.name}: app code in the bundle: ${r.appInputs.join(", ")}`);
    failed = true;
  }
}
console.log(`RESULT extensions ${results.map((r) => `${r.name}=${r.brotli}`).join(" ")}`);
process.exit(failed ? 1 : 0);
