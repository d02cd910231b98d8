import {
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  Divider,
  Form,
  FormLayout,
  InlineStack,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useId, useRef, useState } from "react";

import {
  type AutoDraftRuleDraft,
  type AutoDraftServiceOption,
  createRuleDraft,
  describeRule,
  describeRulesToFix,
  describeServiceReach,
  encodeAutoDraftForm,
  findServiceProblem,
  groupServiceOptions,
  RULE_FIELDS,
  type RuleField,
  rulePath,
  toRuleDraft,
} from "~/auto-draft/auto-draft-form";
import { type AutoDraftRule, MAX_AUTO_DRAFT_RULES } from "~/auto-draft/auto-draft-rules";
import type { BoxPreset, BoxWeightUnit } from "~/settings/settings";
import { WEIGHT_UNIT_OPTIONS } from "~/settings/settings";

import { fieldError, formError, readActionError, type SettingsActionData } from "./settings-action-data";
import { FormProblem } from "./settings-form";
import { useGuardedFetcher } from "./settings-guarded-fetcher";

type Props = {
  autoDraft: { enabled: boolean; rules: AutoDraftRule[] };
  services: readonly AutoDraftServiceOption[];
  presets: readonly BoxPreset[];
  shipFromCountry: string | null;
  currencyCode: string | null;
  /** The unit a new rule's weights start in: the default box's. */
  defaultWeightUnit: BoxWeightUnit;
};

/** A rule in the card: `key` stays put while the rule moves, so React keeps its inputs. */
type Item = { key: string; draft: AutoDraftRuleDraft };

const toItems = (rules: readonly AutoDraftRule[]): Item[] => rules.map((r) => ({ key: r.id, draft: toRuleDraft(r) }));

/** The fields of a rule the card shows now, so a refused save's messages land on visible inputs. */
function shownFields(draft: AutoDraftRuleDraft): RuleField[] {
  return RULE_FIELDS.filter(
    (field) =>
      (field !== "countries" || draft.destination === "countries") &&
      (field !== "serviceCode" || draft.choice === "service"),
  );
}

export function SettingsAutoDraftCard({
  autoDraft,
  services,
  presets,
  shipFromCountry,
  currencyCode,
  defaultWeightUnit,
}: Props) {
  const { submit, busy, data } = useGuardedFetcher();
  const [enabled, setEnabled] = useState(autoDraft.enabled);
  const [items, setItems] = useState(() => toItems(autoDraft.rules));
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  // Errors name rules by position: once rules are added, removed or moved after a refused save,
  // its messages would sit on the wrong rules, so they are shown only for the list as it was sent.
  const [layout, setLayout] = useState(0);
  const [sentLayout, setSentLayout] = useState<number | null>(null);
  const newKeys = useRef(0);
  const applied = useRef<SettingsActionData | undefined>(undefined);

  useEffect(() => {
    if (busy || !data || applied.current === data) return;
    applied.current = data;
    if ("ok" in data) {
      // After a save, the page's data is the saved list (new rules now have ids): start from it.
      setEnabled(autoDraft.enabled);
      setItems(toItems(autoDraft.rules));
      setOpen(new Set());
    } else if (layout === sentLayout) {
      // Opens the rules a refused save names, so each message shows at its input.
      const named = items.filter((_, i) => data.error.fields.some((f) => f.path.startsWith(`rules[${i}]`)));
      setOpen((keys) => new Set([...keys, ...named.map((item) => item.key)]));
    }
  }, [busy, data, autoDraft, items, layout, sentLayout]);

  const shown = layout === sentLayout ? data : undefined;
  const error = readActionError(shown);
  const paths = [
    "autoDraftEnabled",
    ...items.flatMap((item, i) => shownFields(item.draft).map((field) => rulePath(i, field))),
  ];
  const banner = error
    ? ["Nothing was saved.", describeRulesToFix(error.fields), formError(shown, paths)].filter(Boolean).join(" ")
    : null;
  const dirty =
    enabled !== autoDraft.enabled ||
    JSON.stringify(items.map((i) => i.draft)) !== JSON.stringify(autoDraft.rules.map(toRuleDraft));

  const restructure = (change: (items: Item[]) => Item[]) => {
    setItems(change);
    setLayout((n) => n + 1);
  };
  const toggle = (key: string, to: boolean) =>
    setOpen((keys) => {
      const next = new Set(keys);
      if (to) next.add(key);
      else next.delete(key);
      return next;
    });
  const addRule = () => {
    newKeys.current += 1;
    const key = `new-${newKeys.current}`;
    restructure((list) => [...list, { key, draft: createRuleDraft(defaultWeightUnit) }]);
    toggle(key, true);
  };
  const move = (index: number, by: -1 | 1) =>
    restructure((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });
  const update = (key: string, draft: AutoDraftRuleDraft) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, draft } : item)));

  const save = () => {
    setSentLayout(layout);
    submit(
      encodeAutoDraftForm(
        enabled,
        items.map((i) => i.draft),
      ),
    );
  };
  const defaultBox = presets.find((p) => p.isDefault);

  return (
    <Card>
      <Form onSubmit={save}>
        <BlockStack gap="400">
          <FormProblem problem={banner} />
          <Checkbox
            label="Create a draft label when an order is ready to ship"
            helpText="Drafts are never bought automatically: nothing is charged until you open a draft and buy it."
            checked={enabled}
            onChange={setEnabled}
            error={fieldError(shown, "autoDraftEnabled")}
          />
          <Divider />
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              Rules
            </Text>
            <Text as="p" tone="subdued">
              Rules are tried from top to bottom and the first that fits the order is used. When no rule fits, the
              cheapest rate is drafted in the default box.
            </Text>
          </BlockStack>
          {items.length === 0 ? (
            <Text as="p">No rules yet: every draft gets the cheapest rate in the default box.</Text>
          ) : (
            <BlockStack gap="300">
              {items.map((item, index) => (
                <RuleRow
                  key={item.key}
                  index={index}
                  count={items.length}
                  draft={item.draft}
                  open={open.has(item.key)}
                  data={shown}
                  summary={describeRule(item.draft, { services, presets, currencyCode })}
                  services={services}
                  presets={presets}
                  defaultBoxName={defaultBox?.name ?? null}
                  shipFromCountry={shipFromCountry}
                  currencyCode={currencyCode}
                  onChange={(draft) => update(item.key, draft)}
                  onToggle={(to) => toggle(item.key, to)}
                  onMove={(by) => move(index, by)}
                  onRemove={() => restructure((list) => list.filter((i) => i.key !== item.key))}
                />
              ))}
            </BlockStack>
          )}
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Button onClick={addRule} disabled={items.length >= MAX_AUTO_DRAFT_RULES}>
              Add rule
            </Button>
            <InlineStack gap="300" blockAlign="center">
              {dirty ? (
                <Text as="span" tone="subdued">
                  Unsaved changes
                </Text>
              ) : null}
              <Button submit variant="primary" loading={busy} disabled={busy}>
                Save automatic drafts
              </Button>
            </InlineStack>
          </InlineStack>
        </BlockStack>
      </Form>
    </Card>
  );
}

type RuleRowProps = {
  index: number;
  count: number;
  draft: AutoDraftRuleDraft;
  open: boolean;
  data: SettingsActionData | undefined;
  summary: string;
  services: readonly AutoDraftServiceOption[];
  presets: readonly BoxPreset[];
  defaultBoxName: string | null;
  shipFromCountry: string | null;
  currencyCode: string | null;
  onChange: (draft: AutoDraftRuleDraft) => void;
  onToggle: (open: boolean) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
};

function RuleRow({
  index,
  count,
  draft,
  open,
  data,
  summary,
  services,
  presets,
  defaultBoxName,
  shipFromCountry,
  currencyCode,
  onChange,
  onToggle,
  onMove,
  onRemove,
}: RuleRowProps) {
  const number = index + 1;
  const editorId = useId();
  const set =
    <F extends keyof AutoDraftRuleDraft>(field: F) =>
    (value: string) =>
      onChange({ ...draft, [field]: value as AutoDraftRuleDraft[F] });
  const error = (field: RuleField) => fieldError(data, rulePath(index, field));
  const field = (name: RuleField) => ({ value: draft[name], onChange: set(name), error: error(name) });
  // A bound of a rule: a number, blank for no limit.
  const limit = (name: "minWeight" | "maxWeight" | "minOrderValue" | "maxOrderValue") => ({
    type: "number" as const,
    min: 0,
    placeholder: "Any",
    autoComplete: "off",
    ...field(name),
  });
  const service = services.find((s) => s.serviceCode === draft.serviceCode);
  // The server's word after a save; before it, the same check as the merchant picks.
  const serviceProblem = error("serviceCode") ?? findServiceProblem(draft, shipFromCountry);
  const boxOptions = [
    { label: defaultBoxName ? `Default box (${defaultBoxName})` : "Default box", value: "" },
    ...presets.map((p) => ({ label: p.name, value: p.id })),
    ...(draft.boxPresetId && !presets.some((p) => p.id === draft.boxPresetId)
      ? [{ label: "A deleted box", value: draft.boxPresetId }]
      : []),
  ];

  return (
    <Box borderWidth="025" borderColor="border" borderRadius="200" padding="300">
      {/* A named group: each rule's inputs share labels ("Destination"), the group tells them apart. */}
      <div role="group" aria-label={`Rule ${number}`}>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
            <BlockStack gap="100">
              <Text as="h4" variant="headingSm">
                Rule {number}
              </Text>
              <Text as="p">{summary}</Text>
            </BlockStack>
            <InlineStack gap="100" wrap={false}>
              <Button
                size="slim"
                onClick={() => onToggle(!open)}
                ariaExpanded={open}
                ariaControls={editorId}
                accessibilityLabel={`${open ? "Done" : "Edit"}: rule ${number}`}
              >
                {open ? "Done" : "Edit"}
              </Button>
              <Button
                size="slim"
                onClick={() => onMove(-1)}
                disabled={index === 0}
                accessibilityLabel={`Up: move rule ${number} up`}
              >
                Up
              </Button>
              <Button
                size="slim"
                onClick={() => onMove(1)}
                disabled={index === count - 1}
                accessibilityLabel={`Down: move rule ${number} down`}
              >
                Down
              </Button>
              <Button size="slim" tone="critical" onClick={onRemove} accessibilityLabel={`Remove rule ${number}`}>
                Remove
              </Button>
            </InlineStack>
          </InlineStack>
          {open ? (
            <div id={editorId}>
              <FormLayout>
                <FormLayout.Group>
                  <Select
                    label="Destination"
                    options={[
                      { label: "Any destination", value: "any" },
                      {
                        label: shipFromCountry ? `Domestic (to ${shipFromCountry} addresses)` : "Domestic",
                        value: "domestic",
                      },
                      { label: "International", value: "international" },
                      { label: "Specific countries", value: "countries" },
                    ]}
                    {...field("destination")}
                  />
                  {draft.destination === "countries" ? (
                    <TextField
                      label="Country codes"
                      placeholder="CA, GB"
                      helpText="Two-letter codes, separated by commas."
                      {...field("countries")}
                      autoComplete="off"
                    />
                  ) : null}
                </FormLayout.Group>
                <FormLayout.Group condensed helpText="The items' weight, without the box. Leave blank for no limit.">
                  <TextField label="Lowest weight" {...limit("minWeight")} />
                  <TextField label="Highest weight" {...limit("maxWeight")} />
                  <Select label="Weight unit" options={WEIGHT_UNIT_OPTIONS} {...field("weightUnit")} />
                </FormLayout.Group>
                <FormLayout.Group condensed helpText="The order's total. Leave blank for no limit.">
                  <TextField
                    label="Lowest order value"
                    suffix={currencyCode ?? undefined}
                    {...limit("minOrderValue")}
                  />
                  <TextField
                    label="Highest order value"
                    suffix={currencyCode ?? undefined}
                    {...limit("maxOrderValue")}
                  />
                </FormLayout.Group>
                <FormLayout.Group>
                  <Select
                    label="Draft with"
                    options={[
                      { label: "The cheapest rate", value: "cheapest" },
                      { label: "The fastest rate", value: "fastest" },
                      { label: "A specific service", value: "service" },
                    ]}
                    {...field("choice")}
                  />
                  {draft.choice === "service" ? (
                    <Select
                      label="Service"
                      placeholder="Choose a service"
                      options={groupServiceOptions(services)}
                      value={draft.serviceCode}
                      onChange={set("serviceCode")}
                      helpText={
                        service && !serviceProblem
                          ? `${describeServiceReach(service.scope)} When it is not offered for an order, the cheapest rate is drafted.`
                          : undefined
                      }
                      error={serviceProblem}
                    />
                  ) : null}
                </FormLayout.Group>
                <Select label="Box" options={boxOptions} {...field("boxPresetId")} />
              </FormLayout>
            </div>
          ) : null}
        </BlockStack>
      </div>
    </Box>
  );
}
