// One of the app's own files (a label PDF, a run's print file), fetched by the page. A plain link
// or a frame pointed at the route would load without the session token (App Bridge adds it to
// the app's fetches only), so the page fetches the file and keeps it in memory. A refusal comes
// back with the server's words.

export type AppFile = { ok: true; blob: Blob; fileName: string | null } | { ok: false; message: string };

/** The name the server gave the file (`Content-Disposition: attachment; filename="…"`). */
export function readFileName(disposition: string | null): string | null {
  const name = disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1]?.trim() : undefined;
  return name ? name : null;
}

export async function fetchAppFile(url: string): Promise<AppFile> {
  try {
    const response = await fetch(url);
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      return { ok: false, message: body?.error?.message ?? `The file could not be made (HTTP ${response.status}).` };
    }
    return {
      ok: true,
      blob: await response.blob(),
      fileName: readFileName(response.headers.get("Content-Disposition")),
    };
  } catch {
    return { ok: false, message: "The file could not be loaded. Check your connection and try again." };
  }
}

/** Saves a file held in memory under `fileName`, as a download. */
export function saveFile(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
