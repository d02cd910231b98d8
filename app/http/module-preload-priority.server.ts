import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

// React Router's <Scripts /> asks the browser to preload every module of the page at high priority, so
// on a slow phone connection some 300 KB of scripts share the line with the two things the first
// paint actually waits for: the Polaris stylesheet and App Bridge's script. The modules only run
// after the document is parsed (they hydrate what the server already drew), so they are marked
// `fetchpriority="low"`: Chromium then holds them back while the stylesheet loads, and the page
// paints earlier without hydrating later (measured in issue 25's notes, throttled to Lighthouse's
// mobile network). React Router gives no prop for it, hence a rewrite of the document as it streams.
const PRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY_PRELOAD = '<link rel="modulepreload" fetchpriority="low"';

/** The longest end of `text` that could be the start of a preload tag cut by a chunk boundary. */
function partialTagLength(text: string): number {
  for (let length = Math.min(PRELOAD.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(PRELOAD.slice(0, length))) return length;
  }
  return 0;
}

/** A stream of the HTML document whose module preloads ask for low priority. */
export function lowerModulePreloadPriority(): Transform {
  const decoder = new StringDecoder("utf8");
  let held = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = (held + decoder.write(chunk)).replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD);
      // Only what may be half a tag waits for the next chunk; everything else goes out now, so
      // a streamed section (deferred rates) is never held back behind it.
      const keep = partialTagLength(text);
      held = text.slice(text.length - keep);
      done(null, text.slice(0, text.length - keep));
    },
    flush(done) {
      done(null, (held + decoder.end()).replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD));
    },
  });
}
