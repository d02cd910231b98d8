import { Banner, BlockStack, Button, Card, Form, FormLayout } from "@shopify/polaris";
import type { ReactNode } from "react";

/** What the form's refusal says that none of its fields carries (formError), above the form. */
export function FormProblem({ problem }: { problem: string | null }) {
  return problem ? (
    <Banner tone="critical">
      <p>{problem}</p>
    </Banner>
  ) : null;
}

/** A Settings card that is one form: the refusal's banner, the fields, and the save button. */
export function SettingsFormCard(props: {
  onSubmit: () => void;
  problem: string | null;
  busy: boolean;
  saveLabel: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <Form onSubmit={props.onSubmit}>
        <BlockStack gap="400">
          <FormProblem problem={props.problem} />
          <FormLayout>
            {props.children}
            <Button submit variant="primary" loading={props.busy} disabled={props.busy}>
              {props.saveLabel}
            </Button>
          </FormLayout>
        </BlockStack>
      </Form>
    </Card>
  );
}
