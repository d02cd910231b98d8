// The entries the Shopify CLI bundles for an admin UI extension (`shopify app build`), read from
// its shopify.extension.toml. The CLI's ui_extension specification (getBundleExtensionStdinContent
// in Shopify/cli packages/app) bundles every `[[extensions.targeting]]` module into ONE main file,
// each default export registered with `shopify.extend(target, ...)`; a should-render target
// declared as its own `[[extensions.targeting]]` block therefore ships inside the main file. A
// `[extensions.targeting.should_render]` sub-table is bundled as a file of its own, registered for
// the render target's `.should-render` twin. scripts/extensions-size.ts measures these files.

export type Targeting = { module: string; target: string; shouldRender: string | null };

export type BundleEntry = {
  /** "main", or the asset's identifier ("should_render"). */
  file: string;
  /** The esbuild stdin, as the CLI writes it. */
  contents: string;
  targets: string[];
};

const MODULE = /^\s*module\s*=\s*"([^"]+)"/m;
const TARGET = /^\s*target\s*=\s*"([^"]+)"/m;

/** Every `[[extensions.targeting]]` block: its module and target, and a should_render sub-table's module. */
export function readTargetings(toml: string): Targeting[] {
  const blocks = toml.split(/^\s*\[\[extensions\.targeting\]\]\s*$/m).slice(1);
  const targetings = blocks.map((block) => {
    // The block's own keys come before its first sub-table ([extensions.targeting.should_render]).
    const [own = "", ...subTables] = block.split(/^(?=\s*\[)/m);
    const module = MODULE.exec(own)?.[1];
    const target = TARGET.exec(own)?.[1];
    if (!module || !target) throw new Error("an [[extensions.targeting]] block has no module or no target");
    const shouldRenderTable = subTables.find((table) => /^\s*\[extensions\.targeting\.should_render\]/.test(table));
    const shouldRender = shouldRenderTable ? (MODULE.exec(shouldRenderTable)?.[1] ?? null) : null;
    return { module, target, shouldRender };
  });
  if (targetings.length === 0) throw new Error("shopify.extension.toml has no [[extensions.targeting]] block");
  return targetings;
}

/** The CLI's target for a should_render asset: the render target's `.render` becomes `.should-render`. */
const shouldRenderTargetOf = (target: string) => target.replace(/\.render$/, ".should-render");

const register = (name: string, module: string, target: string) =>
  `import ${name} from ${JSON.stringify(module)};shopify.extend(${JSON.stringify(target)}, (...args) => ${name}(...args));`;

/** The files the CLI bundles for one extension: the main one (every target), then any should_render assets. */
export function cliBundleEntries(toml: string): BundleEntry[] {
  const targetings = readTargetings(toml);
  const entries: BundleEntry[] = [
    {
      file: "main",
      contents: targetings.map(({ module, target }, index) => register(`Target_${index}`, module, target)).join("\n"),
      targets: targetings.map(({ target }) => target),
    },
  ];
  for (const { target, shouldRender } of targetings) {
    if (!shouldRender) continue;
    const assetTarget = shouldRenderTargetOf(target);
    entries.push({
      file: "should_render",
      contents: register("shouldRender", shouldRender, assetTarget),
      targets: [assetTarget],
    });
  }
  return entries;
}
