import { Banner, BlockStack, Button, InlineStack, Link, List, Text } from "@shopify/polaris";

import { groupByField } from "~/shipments/problem-count";
import type { KnownPreflightProblem } from "~/shipping/preflight";

// Preflight problems in the merchant's terms: a summary banner for the whole label, and the
// text shown under one field (blocking as its error, warnings and suggestions as help).

/**
 * The label's problems in one banner, one line per field: a field with two problems, or one
 * problem said by both the form's check and the server, counts once. A line whose field the form
 * shows is a link that takes the merchant to it (`fieldFor` names it, `onGoTo` goes).
 */
export function ProblemSummary({
  problems,
  fieldFor,
  onGoTo,
}: {
  problems: readonly KnownPreflightProblem[];
  fieldFor?: (path: string) => string | null;
  onGoTo?: (fieldPath: string) => void;
}) {
  const fields = groupByField(problems);
  const blocking = fields.filter((f) => f.severity === "blocking").length;
  const warnings = fields.length - blocking;
  if (fields.length === 0) return null;
  return (
    <Banner
      tone={blocking > 0 ? "critical" : "warning"}
      title={
        blocking > 0
          ? `${blocking} ${blocking === 1 ? "detail needs" : "details need"} fixing before this label can be bought${warnings > 0 ? `; ${warnings} more to check` : ""}`
          : `${warnings} ${warnings === 1 ? "detail" : "details"} to check`
      }
    >
      <List>
        {fields.map((field) => {
          const text = field.problems
            .filter((p) => p.severity !== "info")
            .map((p) => `${p.message}${p.suggestion ? ` Suggestion: "${p.suggestion}".` : ""}`)
            .join(" ");
          const target = fieldFor?.(field.path) ?? null;
          return (
            <List.Item key={field.path}>
              {target && onGoTo ? (
                <Link onClick={() => onGoTo(target)} accessibilityLabel={`${text} Go to the field.`}>
                  {text}
                </Link>
              ) : (
                text
              )}
            </List.Item>
          );
        })}
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
