import { Readable } from "node:stream";
import { text } from "node:stream/consumers";

import { describe, expect, it } from "vitest";

import { lowerModulePreloadPriority } from "./module-preload-priority.server";

const DOCUMENT =
  '<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="/assets/styles.css"/></head>' +
  '<body><main>Orders · café</main><link rel="modulepreload" href="/assets/manifest.js"/>' +
  '<link rel="modulepreload" href="/assets/entry.client.js"/><script type="module">import "/assets/entry.client.js";</script>' +
  "<p>rel=modulepreload in prose stays</p></body></html>";

const EXPECTED = DOCUMENT.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

async function rewrite(chunks: Buffer[]): Promise<string> {
  return text(Readable.from(chunks).pipe(lowerModulePreloadPriority()));
}

describe("lowerModulePreloadPriority", () => {
  it("marks every module preload low priority and leaves the rest of the document as it was", async () => {
    const rewritten = await rewrite([Buffer.from(DOCUMENT)]);
    expect(rewritten).toBe(EXPECTED);
    expect(rewritten.match(/fetchpriority="low"/g)).toHaveLength(2);
  });

  it("finds a tag cut at any byte by the stream's chunks, a multi-byte character included", async () => {
    const bytes = Buffer.from(DOCUMENT);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await rewrite([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    }
    expect(await rewrite([...bytes].map((byte) => Buffer.from([byte])))).toBe(EXPECTED);
  });

  it("holds back nothing but a possible half tag, so a streamed chunk reaches the browser at once", async () => {
    const stream = lowerModulePreloadPriority();
    const out: string[] = [];
    stream.on("data", (chunk: Buffer) => out.push(chunk.toString()));
    stream.write(Buffer.from("<script>resolve(rates)</script>"));
    stream.write(Buffer.from('<div>shell</div><link rel="modulep'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.join("")).toBe("<script>resolve(rates)</script><div>shell</div>");
    stream.end(Buffer.from('reload" href="/a.js"/>'));
    await new Promise((resolve) => stream.on("end", resolve));
    expect(out.join("")).toBe(
      '<script>resolve(rates)</script><div>shell</div><link rel="modulepreload" fetchpriority="low" href="/a.js"/>',
    );
  });
});
