import { z } from "zod";

import { exchangeForOnlineToken, type StoreConnection } from "./admin";
import type { VerifyStoreOptions } from "./options";
import { readSessionToken, redact } from "./session-token";
import { type Verdict, verdict } from "./verdict";

// ADR 13 lets a staff member buy only when Shopify's online token for them keeps
// write_merchant_managed_fulfillment_orders, on the reading that Shopify drops that scope for
// someone without "Fulfill and ship orders". The emulator is built on that reading; only a real
// store can confirm it. This check makes the same exchange the spend guard makes, for a staff
// member the developer has set up without the permission, and reads what Shopify kept.

/** The scope ADR 13 reads; the same as SPENDING_SCOPES in app/http/spending-permission.server.ts. */
export const SPENDING_SCOPE = "write_merchant_managed_fulfillment_orders";

const CHECK = "staff-scope";

const OnlineTokenAnswerSchema = z.object({
  access_token: z.string().optional(),
  scope: z.string().optional(),
  associated_user_scope: z.string(),
  associated_user: z.object({
    id: z.union([z.number(), z.string()]).transform(String),
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    email: z.string().nullish(),
    account_owner: z.boolean().optional(),
    collaborator: z.boolean().nullish(),
  }),
});
type OnlineTokenAnswer = z.infer<typeof OnlineTokenAnswerSchema>;

const splitScopes = (scope: string | undefined) =>
  (scope ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

type Exchanged = { ok: true; answer: OnlineTokenAnswer; sessionUser: string | null } | { ok: false; verdict: Verdict };

/** Exchanges one session token for an online token, or says why that could not be judged. */
async function exchange(
  options: VerifyStoreOptions,
  connection: StoreConnection,
  sessionToken: string,
  who: string,
  now: number,
): Promise<Exchanged> {
  const needsHuman = (summary: string, details: string[] = []) => ({
    ok: false as const,
    verdict: verdict(CHECK, "NEEDS-HUMAN", summary, details),
  });
  if (!options.apiKey || !options.apiSecret) {
    return needsHuman("Token exchange needs the app's client credentials.", [
      "Set SHOPIFY_API_KEY and SHOPIFY_API_SECRET (`shopify app env show` prints them).",
    ]);
  }
  const read = readSessionToken(sessionToken, options.apiSecret);
  if (!read.ok) return needsHuman(`The ${who} session token cannot be read: ${read.reason}.`, [COPY_HINT]);
  const { claims, signatureMatches } = read;
  if (signatureMatches === false) {
    return needsHuman(`The ${who} session token is not signed with this app's secret.`, [
      "Copy it from this app's iframe, not another app's, and check SHOPIFY_API_SECRET.",
    ]);
  }
  if (claims.dest !== `https://${options.shop}`) {
    return needsHuman(`The ${who} session token is for ${claims.dest ?? "no store"}, not ${options.shop}.`);
  }
  if (claims.exp !== null && claims.exp * 1000 < now - 10_000) {
    return needsHuman(`The ${who} session token expired ${Math.round(now / 1000 - claims.exp)} s ago.`, [
      "Session tokens live 60 seconds: copy a fresh one and run the script straight away.",
      COPY_HINT,
    ]);
  }
  const answer = await exchangeForOnlineToken(
    connection,
    { apiKey: options.apiKey, apiSecret: options.apiSecret },
    sessionToken,
  );
  if (!answer.ok) return needsHuman(`Token exchange got no answer: ${answer.problem}.`);
  if (answer.status !== 200) {
    const error = (answer.body as { error?: unknown } | null)?.error;
    return needsHuman(`Token exchange for the ${who} token answered HTTP ${answer.status} (${String(error)}).`, [
      error === "invalid_subject_token" ? "The token expired on the way: copy a fresh one." : "Check the credentials.",
    ]);
  }
  const parsed = OnlineTokenAnswerSchema.safeParse(answer.body);
  if (!parsed.success) {
    return {
      ok: false,
      verdict: verdict(CHECK, "FAIL", "Shopify's online token answer has no associated_user_scope we can read.", [
        `Answer keys: ${Object.keys((answer.body as object | null) ?? {}).join(", ")}.`,
        "ADR 13 fails closed on this answer: nobody but an unreadable answer would buy. Revisit ADR 13.",
      ]),
    };
  }
  return { ok: true, answer: parsed.data, sessionUser: claims.sub };
}

const COPY_HINT =
  "In the admin, signed in as that staff member, open the app, pick the app's iframe in the browser console and run `copy(await shopify.idToken())`.";

const describeUser = (a: OnlineTokenAnswer) => {
  const u = a.associated_user;
  const name = [u.first_name, u.last_name].filter(Boolean).join(" ");
  return `user ${u.id}${name ? ` (${name})` : ""}`;
};

function describeScopes(answer: OnlineTokenAnswer): string[] {
  const kept = splitScopes(answer.associated_user_scope);
  const granted = splitScopes(answer.scope);
  const dropped = granted.filter((s) => !kept.includes(s));
  return [
    `associated_user_scope: ${kept.join(", ") || "(none)"}`,
    ...(granted.length ? [`dropped from the app's scopes: ${dropped.join(", ") || "(none)"}`] : []),
  ];
}

export async function checkStaffScope(
  options: VerifyStoreOptions,
  connection: StoreConnection,
  now: number,
): Promise<Verdict> {
  const { restrictedSessionToken, restrictedTokenResponse, permittedSessionToken } = options.staffScope;
  let restricted: OnlineTokenAnswer;
  let sessionUser: string | null = null;
  if (restrictedSessionToken) {
    const result = await exchange(options, connection, restrictedSessionToken, "restricted", now);
    if (!result.ok) return result.verdict;
    restricted = result.answer;
    sessionUser = result.sessionUser;
  } else if (restrictedTokenResponse !== null) {
    const parsed = OnlineTokenAnswerSchema.safeParse(restrictedTokenResponse);
    if (!parsed.success) {
      return verdict(CHECK, "NEEDS-HUMAN", "The --online-token-response file is not an online token answer.", [
        "It must be the JSON of a token exchange with requested_token_type online-access-token.",
      ]);
    }
    restricted = parsed.data;
  } else {
    return verdict(CHECK, "NEEDS-HUMAN", "No session token of a staff member without the permission was given.", [
      'Invite a staff member without "Fulfill and ship orders" (Settings → Users), sign in as them, open the app.',
      COPY_HINT,
      "Then run again at once with VERIFY_RESTRICTED_SESSION_TOKEN=<token> --check staff-scope.",
    ]);
  }

  const user = describeUser(restricted);
  if (sessionUser !== null && restricted.associated_user.id !== sessionUser) {
    return verdict(CHECK, "FAIL", `Shopify named ${user}, but the session token names user ${sessionUser}.`, [
      "ADR 13 refuses when the two differ; if Shopify always answers so, nobody can buy. Revisit ADR 13.",
    ]);
  }
  if (restricted.associated_user.account_owner === true) {
    return verdict(CHECK, "NEEDS-HUMAN", `That token is the store owner's (${user}), who keeps every scope.`, [
      'Sign in as a staff member without "Fulfill and ship orders" and copy their token.',
    ]);
  }
  const keeps = splitScopes(restricted.associated_user_scope).includes(SPENDING_SCOPE);
  if (keeps) {
    return verdict(CHECK, "FAIL", `Shopify kept ${SPENDING_SCOPE} for ${user}.`, [
      ...describeScopes(restricted),
      'If that staff member really lacks "Fulfill and ship orders", ADR 13\'s rule lets them buy:',
      "the spend guard (SPENDING_SCOPES in app/http/spending-permission.server.ts) needs another signal.",
    ]);
  }

  const details = [...describeScopes(restricted)];
  if (permittedSessionToken) {
    const control = await exchange(options, connection, permittedSessionToken, "permitted", now);
    if (!control.ok) return control.verdict;
    const controlUser = describeUser(control.answer);
    if (!splitScopes(control.answer.associated_user_scope).includes(SPENDING_SCOPE)) {
      return verdict(CHECK, "FAIL", `Shopify dropped ${SPENDING_SCOPE} for ${controlUser} too, who may fulfil.`, [
        ...describeScopes(control.answer),
        "With this answer ADR 13 refuses every staff member but the owner. Revisit ADR 13.",
      ]);
    }
    details.push(`control: ${controlUser} keeps ${SPENDING_SCOPE}, as ADR 13 expects.`);
  } else {
    details.push("No control token: VERIFY_PERMITTED_SESSION_TOKEN would also check a permitted staff member.");
  }
  if (restrictedSessionToken)
    details.push(`(session token ${redact(restrictedSessionToken)}; the online token was dropped)`);
  return verdict(CHECK, "PASS", `Shopify dropped ${SPENDING_SCOPE} for ${user}, as ADR 13 relies on.`, details);
}
