import { BlockStack, Layout, Page } from "@shopify/polaris";
import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { z } from "zod";

import { AutoDraftFormSchema } from "~/auto-draft/auto-draft-form";
import { saveAutoDraftSettings } from "~/auto-draft/auto-draft-settings.server";
import type { SettingsActionData, SettingsIntent } from "~/components/settings/settings-action-data";
import { SettingsApiKeyCard } from "~/components/settings/settings-api-key-card";
import { SettingsAutoDraftCard } from "~/components/settings/settings-auto-draft-card";
import { SettingsBoxPresetsCard } from "~/components/settings/settings-box-presets-card";
import { SettingsGeneralCard } from "~/components/settings/settings-general-card";
import { SettingsOptionRulesCard } from "~/components/settings/settings-option-rules-card";
import { SettingsRetentionCard } from "~/components/settings/settings-retention-card";
import { type ErrorBody, respondWithError } from "~/http/error-response.server";
import { requireShopContext } from "~/http/shop-context.server";
import { loadSettingsScreen } from "~/routes/app.settings/settings-screen.server";
import { OptionRulesFormSchema, toOptionRules } from "~/settings/option-rules";
import { RetentionFormSchema } from "~/settings/retention";
import { saveShipToRetentionDays } from "~/settings/retention-settings.server";
import { saveVerifiedShippingApiKey } from "~/settings/save-api-key.server";
import { BoxPresetFormSchema, SettingsFormSchema } from "~/settings/settings";
import {
  clearShippingApiKey,
  createBoxPreset,
  deleteBoxPreset,
  makeDefaultBoxPreset,
  saveGeneralSettings,
  saveShopSettings,
  updateBoxPreset,
} from "~/settings/settings.server";
import { checkShippingConnection } from "~/settings/test-connection.server";
import { formatFieldPath } from "~/utils/field-path";

// Settings must render without a shipping key (it is where the key is entered): this route never
// calls requireShipping().

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { db, shop, admin } = await requireShopContext(request);
  return loadSettingsScreen({ db, shop, admin });
};

const IdSchema = z.object({ id: z.string().min(1) });

/** A form the merchant can correct: 422 with a message per field, as respondWithError answers. */
function refuseForm(issues: z.ZodIssue[]): Response {
  const body: ErrorBody = {
    error: {
      code: "INVALID_SETTINGS",
      message: "Some fields need attention.",
      // "rules[2].maxWeight", the path saveAutoDraftSettings and the forms use.
      fields: issues.map((i) => ({ path: formatFieldPath(i.path), message: i.message })),
    },
  };
  return Response.json(body, { status: 422 });
}

function done(intent: SettingsIntent, message: string, extra: Partial<SettingsActionData & { ok: true }> = {}) {
  return { ok: true as const, intent, message, ...extra } satisfies SettingsActionData;
}

export const action = async ({ request }: ActionFunctionArgs) => {
  const { db, shop, admin, redirect } = await requireShopContext(request);
  const form = Object.fromEntries(await request.formData());
  const intent = z
    .enum([
      "saveSettings",
      "saveApiKey",
      "removeApiKey",
      "testConnection",
      "createBox",
      "updateBox",
      "deleteBox",
      "makeDefaultBox",
      "saveAutoDraft",
      "saveRetention",
      "saveOptionRules",
    ])
    .safeParse(form.intent);
  if (!intent.success) {
    const body: ErrorBody = {
      error: { code: "UNKNOWN_INTENT", message: "Reload the page and try again.", fields: [] },
    };
    return Response.json(body, { status: 400 });
  }
  switch (intent.data) {
    case "saveSettings": {
      const parsed = SettingsFormSchema.safeParse(form);
      if (!parsed.success) return refuseForm(parsed.error.issues);
      const saved = await saveGeneralSettings({ db, shop, admin }, parsed.data);
      return saved.ok ? done("saveSettings", "Settings saved") : respondWithError(saved.error, { redirect });
    }
    case "saveApiKey": {
      const apiKey = typeof form.apiKey === "string" ? form.apiKey : "";
      // The key is checked before it is stored: a refused or unchecked key never replaces the saved one.
      const saved = await saveVerifiedShippingApiKey(db, shop, apiKey);
      if (!saved.ok) return respondWithError(saved.error, { redirect });
      return done("saveApiKey", "API key saved and verified", { connection: saved.value });
    }
    case "removeApiKey":
      await clearShippingApiKey(db, shop);
      return done("removeApiKey", "API key removed");
    case "testConnection":
      return done("testConnection", "Connection checked", { connection: await checkShippingConnection(db, shop) });
    case "createBox": {
      const parsed = BoxPresetFormSchema.safeParse(form);
      if (!parsed.success) return refuseForm(parsed.error.issues);
      const saved = await createBoxPreset(db, shop, parsed.data);
      return saved.ok
        ? done("createBox", `Box "${saved.value.name}" added`)
        : respondWithError(saved.error, { redirect });
    }
    case "updateBox": {
      const parsed = BoxPresetFormSchema.extend(IdSchema.shape).safeParse(form);
      if (!parsed.success) return refuseForm(parsed.error.issues);
      const { id, ...box } = parsed.data;
      const saved = await updateBoxPreset(db, shop, id, box);
      return saved.ok
        ? done("updateBox", `Box "${saved.value.name}" saved`)
        : respondWithError(saved.error, { redirect });
    }
    case "deleteBox":
    case "makeDefaultBox": {
      const id = IdSchema.safeParse(form);
      if (!id.success) return refuseForm(id.error.issues);
      if (intent.data === "deleteBox") {
        const deleted = await deleteBoxPreset(db, shop, id.data.id);
        return deleted.ok ? done("deleteBox", "Box deleted") : respondWithError(deleted.error, { redirect });
      }
      const made = await makeDefaultBoxPreset(db, shop, id.data.id);
      return made.ok
        ? done("makeDefaultBox", `"${made.value.name}" is now the default box`)
        : respondWithError(made.error, { redirect });
    }
    case "saveAutoDraft": {
      const parsed = AutoDraftFormSchema.safeParse(form);
      if (!parsed.success) return refuseForm(parsed.error.issues);
      const saved = await saveAutoDraftSettings({ db, shop, admin }, parsed.data);
      if (!saved.ok) return respondWithError(saved.error, { redirect });
      return done("saveAutoDraft", saved.value.enabled ? "Automatic drafts are on" : "Automatic drafts are off");
    }
    case "saveOptionRules": {
      const parsed = OptionRulesFormSchema.safeParse(form);
      if (!parsed.success) return refuseForm(parsed.error.issues);
      const saved = await saveShopSettings(db, shop, { optionRules: toOptionRules(parsed.data) });
      if (!saved.ok) return respondWithError(saved.error, { redirect });
      return done("saveOptionRules", "Option rules saved");
    }
    case "saveRetention": {
      const parsed = RetentionFormSchema.safeParse(form);
      if (!parsed.success) return refuseForm(parsed.error.issues);
      const saved = await saveShipToRetentionDays(db, shop, parsed.data);
      if (!saved.ok) return respondWithError(saved.error, { redirect });
      return done("saveRetention", `Ship-to details are kept for ${saved.value.shipToRetentionDays} days`);
    }
  }
};

export default function SettingsPage() {
  const {
    settings,
    presets,
    locations,
    locationsProblem,
    validationPriceCents,
    autoDraft,
    autoDraftServices,
    shipFromCountry,
    currencyCode,
    events,
    shipToRetentionDays,
  } = useLoaderData<typeof loader>();
  return (
    <Page title="Settings">
      <Layout>
        <Layout.AnnotatedSection
          title="Shipping account"
          description="The API key from your shipping service account. Labels are bought with it."
        >
          <SettingsApiKeyCard apiKey={settings.apiKey} mode={settings.mode} events={events} />
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Labels"
          description="How labels are printed, where they ship from, and when addresses are checked."
        >
          <BlockStack gap="400">
            <SettingsGeneralCard
              settings={settings}
              locations={locations}
              locationsProblem={locationsProblem}
              validationPriceCents={validationPriceCents}
            />
          </BlockStack>
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Boxes"
          description="The boxes you pack into. New labels start with the default box; heavier orders are split across several."
        >
          <SettingsBoxPresetsCard presets={presets} fallbackBox={settings.box} />
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Insurance, signature and batteries"
          description="Options every new label starts with, by rule: insure valuable shipments, ask for an adult signature for some products, declare lithium batteries for others."
        >
          <SettingsOptionRulesCard optionRules={settings.optionRules} />
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Automatic draft labels"
          description="When this is on, a draft label is prepared for each order that is ready to ship, with the rate and box your rules pick. You review and buy it as usual."
        >
          <SettingsAutoDraftCard
            autoDraft={autoDraft}
            services={autoDraftServices}
            presets={presets}
            shipFromCountry={shipFromCountry}
            currencyCode={currencyCode}
            defaultWeightUnit={settings.box.weightUnit}
          />
        </Layout.AnnotatedSection>
        <Layout.AnnotatedSection
          title="Customer data"
          description="Each label keeps a copy of its recipient's name, address, phone and e-mail while it may be needed. Choose how long that copy is kept once the parcel is delivered, or the label is voided or failed. A bought label that never reports delivery keeps it for twice as long."
        >
          <SettingsRetentionCard shipToRetentionDays={shipToRetentionDays} />
        </Layout.AnnotatedSection>
      </Layout>
    </Page>
  );
}
