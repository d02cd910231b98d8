import type { ExtensionProblem } from "../../app/extension-api/contract";
import type { ApiFailure } from "./api";

/** The problems that stop a label, each with what to do about it. */
export function ProblemList({ problems }: { problems: ExtensionProblem[] }) {
  return (
    <s-unordered-list>
      {problems.map((problem) => (
        <s-list-item key={`${problem.path}:${problem.message}`}>
          {problem.message}
          {problem.fix ? ` ${problem.fix}` : null}
        </s-list-item>
      ))}
    </s-unordered-list>
  );
}

/** A refusal or a lost connection, in the app's words, with the fields or problems it named. */
export function ErrorBanner({ failure, heading }: { failure: ApiFailure; heading?: string }) {
  // Only what adds to the message, in words: request field names mean nothing to a merchant.
  const fields = (failure.body?.error.fields ?? []).filter((field) => field.message !== failure.message);
  const problems = failure.body?.problems ?? [];
  return (
    <s-banner tone="critical" heading={heading ?? (failure.status === 0 ? "No connection" : "Something went wrong")}>
      <s-paragraph>{failure.message}</s-paragraph>
      {fields.length > 0 ? (
        <s-unordered-list>
          {fields.map((field) => (
            <s-list-item key={field.path}>{field.message}</s-list-item>
          ))}
        </s-unordered-list>
      ) : null}
      {problems.length > 0 ? <ProblemList problems={problems} /> : null}
    </s-banner>
  );
}
