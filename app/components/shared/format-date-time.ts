/** A stored timestamp as the merchant reads it on every screen, e.g. "Nov 22, 2026, 9:41 AM". */
export function formatDateTime(value: string | Date): string {
  return new Date(value).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}
