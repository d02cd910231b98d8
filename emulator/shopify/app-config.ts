import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type { WebhookSubscription } from "./webhooks";

// The webhook subscriptions of shopify.app.toml, read the way the Shopify CLI registers them:
// each [[webhooks.subscriptions]] block's `topics` and `compliance_topics` go to its `uri`, with
// only its `include_fields` when it lists them.
// A small reader of the TOML this file uses (tables, arrays of tables, strings, arrays over
// several lines, comments), not a TOML parser: other values are skipped, and anything it cannot
// read throws with the line, so a change to the file never silently drops a subscription.

export const APP_CONFIG_PATH = fileURLToPath(new URL("../../shopify.app.toml", import.meta.url));

export interface AppWebhookConfig {
  apiVersion: string | null;
  subscriptions: WebhookSubscription[];
}

type Value = string | Value[] | { other: string };

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  get done() {
    return this.at >= this.text.length;
  }

  private fail(message: string): never {
    const line = this.text.slice(0, this.at).split("\n").length;
    throw new Error(`shopify.app.toml line ${line}: ${message}`);
  }

  private peek(n = 1) {
    return this.text.slice(this.at, this.at + n);
  }

  /** Skips spaces and comments; with `newlines`, line ends too. */
  skip(newlines: boolean) {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t" || c === "\r" || (newlines && c === "\n")) this.at += 1;
      else if (c === "#") while (!this.done && this.peek() !== "\n") this.at += 1;
      else return;
    }
  }

  /** `[table]` or `[[array.of.tables]]`: the name and whether it is an array of tables. */
  readHeader(): { name: string; isArray: boolean } | null {
    if (this.peek() !== "[") return null;
    const isArray = this.peek(2) === "[[";
    this.at += isArray ? 2 : 1;
    const end = this.text.indexOf(isArray ? "]]" : "]", this.at);
    if (end === -1) this.fail("unclosed table header");
    const name = this.text
      .slice(this.at, end)
      .split(".")
      .map((part) => part.trim().replace(/^"(.*)"$/, "$1"))
      .join(".");
    this.at = end + (isArray ? 2 : 1);
    return { name, isArray };
  }

  readKey(): string {
    const match = /^("[^"\n]*"|'[^'\n]*'|[A-Za-z0-9_.-]+)\s*=/.exec(this.text.slice(this.at));
    if (!match?.[1]) this.fail("expected key = value");
    this.at += match[0].length;
    return match[1].replace(/^["'](.*)["']$/, "$1");
  }

  readValue(): Value {
    this.skip(false);
    const c = this.peek();
    if (c === '"' || c === "'") return this.readString();
    if (c === "[") return this.readArray();
    if (c === "{") return { other: this.readBalanced("{", "}") };
    const match = /^[^\n#,\]]*/.exec(this.text.slice(this.at));
    const raw = (match?.[0] ?? "").trim();
    if (!raw) this.fail("expected a value");
    this.at += match?.[0].length ?? 0;
    return { other: raw };
  }

  private readString(): string {
    const quote = this.peek();
    if (this.peek(3) === quote.repeat(3)) this.fail("multi-line strings are not read here");
    this.at += 1;
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === "" || c === "\n") this.fail("unterminated string");
      this.at += 1;
      if (c === quote) return out;
      if (c === "\\" && quote === '"') {
        const e = this.peek();
        this.at += 1;
        const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", b: "\b", f: "\f" };
        if (e in simple) out += simple[e];
        else if (e === "u" || e === "U") {
          const length = e === "u" ? 4 : 8;
          const hex = this.text.slice(this.at, this.at + length);
          if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== length) this.fail("bad unicode escape");
          out += String.fromCodePoint(parseInt(hex, 16));
          this.at += length;
        } else this.fail(`bad escape \\${e}`);
      } else out += c;
    }
  }

  private readArray(): Value[] {
    this.at += 1;
    const items: Value[] = [];
    for (;;) {
      this.skip(true);
      if (this.peek() === "]") {
        this.at += 1;
        return items;
      }
      items.push(this.readValue());
      this.skip(true);
      if (this.peek() === ",") this.at += 1;
      else if (this.peek() !== "]") this.fail("expected , or ] in an array");
    }
  }

  private readBalanced(open: string, close: string): string {
    const from = this.at;
    let depth = 0;
    while (!this.done) {
      const c = this.peek();
      if (c === '"' || c === "'") {
        this.readString();
        continue;
      }
      this.at += 1;
      if (c === open) depth += 1;
      else if (c === close && --depth === 0) return this.text.slice(from, this.at);
    }
    return this.fail(`unclosed ${open}`);
  }

  endLine() {
    this.skip(false);
    if (!this.done && this.peek() !== "\n") this.fail("unexpected text after a value");
  }
}

const isStringArray = (value: Value | undefined): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === "string");

/** The [webhooks] api_version and subscriptions of shopify.app.toml's text. */
export function readAppWebhookConfig(toml: string): AppWebhookConfig {
  const reader = new Reader(toml);
  let table = "";
  let block: Map<string, Value> | null = null;
  const blocks: Map<string, Value>[] = [];
  let apiVersion: string | null = null;
  for (;;) {
    reader.skip(true);
    if (reader.done) break;
    const header = reader.readHeader();
    if (header) {
      table = header.name;
      block = header.isArray && table === "webhooks.subscriptions" ? new Map() : null;
      if (block) blocks.push(block);
      reader.endLine();
      continue;
    }
    const key = reader.readKey();
    const value = reader.readValue();
    reader.endLine();
    if (block) block.set(key, value);
    else if (table === "webhooks" && key === "api_version" && typeof value === "string") apiVersion = value;
  }
  const subscriptions = blocks.map((b, i) => {
    const uri = b.get("uri");
    if (typeof uri !== "string") throw new Error(`shopify.app.toml: webhook subscription ${i + 1} has no uri`);
    const topics: string[] = [];
    for (const key of ["topics", "compliance_topics"]) {
      const value = b.get(key);
      if (value === undefined) continue;
      if (!isStringArray(value))
        throw new Error(`shopify.app.toml: ${key} of subscription ${i + 1} is not a list of strings`);
      topics.push(...value);
    }
    if (topics.length === 0) throw new Error(`shopify.app.toml: webhook subscription ${i + 1} has no topics`);
    const includeFields = b.get("include_fields");
    if (includeFields === undefined) return { topics, uri };
    if (!isStringArray(includeFields) || includeFields.length === 0)
      throw new Error(`shopify.app.toml: include_fields of subscription ${i + 1} is not a list of field names`);
    return { topics, uri, includeFields };
  });
  return { apiVersion, subscriptions };
}

/** The subscriptions of the repository's shopify.app.toml (or another file). */
export function loadWebhookSubscriptions(path: string = APP_CONFIG_PATH): WebhookSubscription[] {
  return readAppWebhookConfig(readFileSync(path, "utf8")).subscriptions;
}
