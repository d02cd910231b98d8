import type { ErrorBody } from "~/http/error-response.server";
import type { ConnectionReport } from "~/settings/test-connection.server";

// What the Settings action answers, as its forms read it (fetcher.data): a success naming the
// intent, or the app's one error body (422: fields to fix; 500: a reference to quote).

export type SettingsIntent =
  | "saveSettings"
  | "saveApiKey"
  | "removeApiKey"
  | "testConnection"
  | "createBox"
  | "updateBox"
  | "deleteBox"
  | "makeDefaultBox"
  | "saveAutoDraft"
  | "saveRetention"
  | "saveOptionRules";

export type SettingsActionSuccess = {
  ok: true;
  intent: SettingsIntent;
  /** A short confirmation for a toast. */
  message: string;
  connection?: ConnectionReport;
};

export type SettingsActionData = SettingsActionSuccess | ErrorBody;

export function readActionError(data: SettingsActionData | undefined): ErrorBody["error"] | null {
  return data && "error" in data ? data.error : null;
}

/** The message for one field, to sit next to it (`error` prop of Polaris fields). */
export function fieldError(data: SettingsActionData | undefined, path: string): string | undefined {
  return readActionError(data)?.fields.find((f) => f.path === path)?.message;
}

/**
 * What a banner above the form says: the error when no field of the form carries it (with any
 * fields the form does not show); null when every message already sits next to its field.
 */
export function formError(data: SettingsActionData | undefined, paths: readonly string[]): string | null {
  const error = readActionError(data);
  if (!error) return null;
  const unplaced = error.fields.filter((f) => !paths.includes(f.path));
  if (error.fields.length > 0 && unplaced.length === 0) return null;
  return [error.message, ...unplaced.map((f) => `${f.path}: ${f.message}`)].join(" ");
}
