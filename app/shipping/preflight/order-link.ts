// The order the label belongs to on a sales platform: the platform and its order id go
// together, and each may be sent under its alias but not as two different values.

import type { LabelRequestInput } from "../preflight";
import { isBlank, type ProblemList } from "./problem-list";

export function checkOrderLink(problems: ProblemList, request: LabelRequestInput): void {
  const pick = (
    main: string | null | undefined,
    alias: string | null | undefined,
    mainPath: string,
    aliasPath: string,
  ): string | null => {
    const a = isBlank(main) ? null : String(main);
    const b = isBlank(alias) ? null : String(alias);
    if (a !== null && b !== null && a !== b) {
      problems.block(
        aliasPath,
        "ALIAS_CONFLICT",
        `${aliasPath} is another name for ${mainPath}; the two differ. Send one.`,
      );
    }
    return a ?? b;
  };
  const platform = pick(request.platform, request.channel, "platform", "channel");
  const orderId = pick(request.platform_order_id, request.external_order_id, "platform_order_id", "external_order_id");
  if (platform !== null && orderId === null) {
    problems.block(
      "platform_order_id",
      "PLATFORM_ORDER_ID_REQUIRED",
      "A platform needs the order's id on that platform.",
    );
  }
  if (platform === null && orderId !== null) {
    problems.block("platform", "PLATFORM_REQUIRED", "An order id on a platform needs the platform's name.");
  }
}
