import type { Prisma } from "@prisma/client";

import db from "~/db.server";

import { TEST_SHOP } from "../setup/test-env";

let next = 1000;

/**
 * A label row as the label repository would have left it, for read-model tests. Test code may
 * write label rows directly; app code may not (label-repository.server.test.ts checks).
 */
export async function insertLabelRow(fields: Partial<Prisma.LabelUncheckedCreateInput> = {}) {
  const n = next++;
  return db.label.create({
    data: {
      shop: TEST_SHOP,
      orderGid: `gid://shopify/Order/${n}`,
      orderName: `#${n}`,
      fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/${n}`,
      status: "draft",
      ...fields,
    },
  });
}
