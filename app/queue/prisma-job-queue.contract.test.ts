import db from "~/db.server";

import { describeJobQueueContract } from "../../test/contracts/job-queue.contract";
import { createPrismaJobQueue } from "./prisma-job-queue.server";

// The app's own Job table meets the port's contract: on SQLite (`npm test`) and, under
// `npm run test:postgres`, on PostgreSQL too. pg-boss runs the same cases in test/postgresql/.
describeJobQueueContract("the app's Job table", () => createPrismaJobQueue(db));
