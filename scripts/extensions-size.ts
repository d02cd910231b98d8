// npm run size:extensions — builds each admin UI extension offline the way `shopify app build`
// does and prints its size, raw and compressed. Shopify refuses to deploy an extension whose
// compressed JS is 64 KB or more; the CLI reports brotli (quality 11), so that is the measure here.
//
// The build copies the CLI's esbuild options (bundle, minify, automatic JSX, target es6, no legal
// comments, NODE_ENV=production) and its entry. The CLI (the ui_extension specification's
// getBundleExtensionStdinContent, Shopify/cli packages/app) bundles EVERY `[[extensions.targeting]]`
// module of an extension into one file, each default-exported module wrapped in
// `shopify.extend(target, ...)`: the render target and the should-render target ship together, so
// both are measured together. A `[extensions.targeting.should_render]` sub-table, the other way
// to declare one, becomes a file of its own (an asset), measured on its own line. JSX goes to
// Preact, as each extension's tsconfig says. It also fails when anything from app/ lands in a
// bundle: the extensions share only types with the app.
//
// Last line: `RESULT extensions order-label-action=<n> bulk-label-action=<n> order-label-print=<n>
// bulk-label-print=<n>` (brotli bytes of each extension's main file; a should_render asset adds
// `<name>/should_render=<n>`). Exits 1 when a file is at the limit or pulls in app code.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

import { build } from "esbuild";

import { cliBundleEntries } from "./extension-bundle-entries";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const EXTENSIONS = ["order-label-action", "bulk-label-action", "order-label-print", "bulk-label-print"] as const;
const LIMIT = 64 * 1024;

type Measured = {
  name: string;
  targets: string[];
  raw: number;
  brotli: number;
  gzip: number;
  appInputs: string[];
};

async function bundle(name: string, dir: string, contents: string, targets: string[]): Promise<Measured> {
  const result = await build({
    stdin: { contents, resolveDir: dir, sourcefile: "entry.tsx", loader: "tsx" },
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
    targets,
    raw: code.length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    gzip: gzipSync(code, { level: 9 }).length,
    appInputs,
  };
}

/** The files the CLI would ship for one extension: the main one, then any should_render assets. */
async function measure(name: string): Promise<Measured[]> {
  const dir = join(root, "extensions", name);
  const files: Measured[] = [];
  for (const entry of cliBundleEntries(readFileSync(join(dir, "shopify.extension.toml"), "utf8"))) {
    files.push(
      await bundle(entry.file === "main" ? name : `${name}/${entry.file}`, dir, entry.contents, entry.targets),
    );
  }
  return files;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const results: Measured[] = [];
for (const name of EXTENSIONS) results.push(...(await measure(name)));

let failed = false;
for (const r of results) {
  console.log(
    `${r.name.padEnd(20)} raw ${String(r.raw).padStart(7)} B (${kb(r.raw)})  brotli ${String(r.brotli).padStart(6)} B (${kb(r.brotli)})  gzip ${String(r.gzip).padStart(6)} B`,
  );
  console.log(`  ${r.targets.length === 1 ? "target" : `${r.targets.length} targets`}: ${r.targets.join(", ")}`);
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
