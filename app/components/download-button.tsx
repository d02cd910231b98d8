import { Button } from "@shopify/polaris";
import { useState } from "react";

// Downloads one of the app's own files from inside the admin. A plain link would open without
// the session token (App Bridge adds it to the app's fetches only), so the page fetches the file
// and saves it from memory. A failure is said next to the button, with the server's words.

type Props = {
  url: string;
  fileName: string;
  children: string;
  primary?: boolean;
  onError: (message: string | null) => void;
};

export function DownloadButton({ url, fileName, children, primary, onError }: Props) {
  const [loading, setLoading] = useState(false);
  const download = async () => {
    setLoading(true);
    onError(null);
    try {
      const response = await fetch(url);
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        onError(body?.error?.message ?? `The file could not be made (HTTP ${response.status}).`);
        return;
      }
      const blob = await response.blob();
      const href = URL.createObjectURL(blob);
      const anchor = document.createElement("a");
      anchor.href = href;
      anchor.download = fileName;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
    } catch {
      onError("The file could not be downloaded. Check your connection and try again.");
    } finally {
      setLoading(false);
    }
  };
  return (
    <Button {...(primary ? { variant: "primary" as const } : {})} loading={loading} onClick={() => void download()}>
      {children}
    </Button>
  );
}
