import { Button } from "@shopify/polaris";
import { useState } from "react";

import { fetchAppFile, saveFile } from "./app-file";

// Downloads one of the app's own files from inside the admin: fetched with the session token,
// then saved from memory. A failure is said next to the button, with the server's words.

type Props = {
  url: string;
  /** When the server names none in Content-Disposition. */
  fileName: string;
  children: string;
  variant?: "primary" | "plain";
  /** For a button whose text needs its row to make sense ("Download the label of #1001"). */
  accessibilityLabel?: string;
  onError: (message: string | null) => void;
};

export function DownloadButton({ url, fileName, children, variant, accessibilityLabel, onError }: Props) {
  const [loading, setLoading] = useState(false);
  const download = async () => {
    setLoading(true);
    onError(null);
    const file = await fetchAppFile(url);
    setLoading(false);
    if (file.ok) saveFile(file.blob, file.fileName ?? fileName);
    else onError(file.message);
  };
  return (
    <Button
      {...(variant ? { variant } : {})}
      {...(accessibilityLabel ? { accessibilityLabel } : {})}
      loading={loading}
      onClick={() => void download()}
    >
      {children}
    </Button>
  );
}
