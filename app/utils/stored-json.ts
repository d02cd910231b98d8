import type { z } from "zod";

/**
 * A JSON column read back through its schema. Rows are written only validated, so a value that
 * no longer parses (an older shape, a hand edit) yields the fallback rather than an exception.
 */
export function parseStoredJson<T>(json: string | null, schema: z.ZodType<T, unknown>, fallback: T): T {
  if (json === null) return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}
