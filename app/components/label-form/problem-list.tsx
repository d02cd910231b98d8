import { Banner, BlockStack, Button, InlineStack, List, Text } from "@shopify/polaris";

import type { KnownPreflightProblem } from "~/shipping/preflight";

// Preflight problems in the merchant's terms: a summary banner for the whole label, and the
// text shown under one field (blocking as its error, warnings and suggestions as help).

export function ProblemSummary({ problems }: { problems: readonly KnownPreflightProblem[] }) {
  const blocking = problems.filter((p) => p.severity === "blocking");
  const warnings = problems.filter((p) => p.severity === "warning");
  if (blocking.length === 0 && warnings.length === 0) return null;
  return (
    <Banner
      tone={blocking.length > 0 ? "critical" : "warning"}
      title={
        blocking.length > 0
          ? `${blocking.length} ${blocking.length === 1 ? "detail needs" : "details need"} fixing before this label can be bought${warnings.length > 0 ? `; ${warnings.length} more to check` : ""}`
          : `${warnings.length} ${warnings.length === 1 ? "detail" : "details"} to check`
      }
    >
      <List>
        {[...blocking, ...warnings].map((p) => (
          <List.Item key={`${p.path}|${p.code}`}>
            {p.message}
            {p.suggestion ? ` Suggestion: "${p.suggestion}".` : ""}
          </List.Item>
        ))}
      </List>
    </Banner>
  );
}

/** The error text for a field (blocking problems), or undefined. */
export function fieldError(problems: readonly KnownPreflightProblem[]): string | undefined {
  const blocking = problems.filter((p) => p.severity === "blocking");
  return blocking.length > 0 ? blocking.map((p) => p.message).join(" ") : undefined;
}

/** Warnings and info under a field, with a button to take a suggestion. */
export function FieldNotes({
  problems,
  onUseSuggestion,
}: {
  problems: readonly KnownPreflightProblem[];
  onUseSuggestion?: (suggestion: string) => void;
}) {
  const notes = problems.filter((p) => p.severity !== "blocking" || p.suggestion);
  if (notes.length === 0) return null;
  return (
    <BlockStack gap="100">
      {notes.map((p) => (
        <InlineStack key={`${p.path}|${p.code}`} gap="200" blockAlign="center">
          <Text as="span" tone={p.severity === "info" ? "subdued" : "caution"} variant="bodySm">
            {p.severity === "blocking" ? "" : p.message}
            {p.suggestion ? ` Suggested: "${p.suggestion}"` : ""}
          </Text>
          {p.suggestion && onUseSuggestion ? (
            <Button variant="plain" onClick={() => onUseSuggestion(p.suggestion ?? "")}>
              Use suggestion
            </Button>
          ) : null}
        </InlineStack>
      ))}
    </BlockStack>
  );
}
