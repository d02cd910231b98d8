// Seeded, deterministic identifiers: after a reset the same sequence of requests yields the same
// ids and tracking numbers, so tests and demos are reproducible. No Math.random anywhere.

/** 32-bit avalanche mix (murmur3 finalizer): cheap enough for the hot path. */
function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hashes a string with a seed (FNV-1a then mixed). */
export function hashString(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Two independent 32-bit hashes of (seed, stream, counter) as 16 lowercase hex characters. */
export function makeHexToken(seed: number, stream: string, counter: number): string {
  const base = hashString(seed, stream);
  const a = mix32(base ^ mix32(counter + 0x9e3779b9));
  const b = mix32(a ^ mix32(counter * 31 + 0x7f4a7c15));
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

/** A string of `length` decimal digits derived from the inputs. */
export function makeDigits(seed: number, key: string, length: number): string {
  let out = "";
  let h = hashString(seed, key);
  while (out.length < length) {
    h = mix32(h + 0x6d2b79f5);
    out += String(h % 1_000_000_000).padStart(9, "0");
  }
  return out.slice(0, length);
}
