// What a thrown value says: for log lines, and for the one mapping of a job's failure (job-outcome.ts).

/** An Error as `name: message`, anything else as a string. */
export const describeThrown = (thrown: unknown) =>
  thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);

/** The HTTP status a thrown Response or a library error (its `response.code` or `.status`) carries, if any. */
export function httpStatusOf(thrown: unknown): number | null {
  if (thrown instanceof Response) return thrown.status;
  if (typeof thrown !== "object" || thrown === null || !("response" in thrown)) return null;
  const response = (thrown as { response?: unknown }).response;
  if (typeof response !== "object" || response === null) return null;
  const code = (response as { code?: unknown }).code ?? (response as { status?: unknown }).status;
  return typeof code === "number" ? code : null;
}
