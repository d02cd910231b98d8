import { createBaseDatabase, createBasePostgresDatabase, testPostgresUrl } from "./database";

export default async function globalSetup() {
  if (testPostgresUrl()) return createBasePostgresDatabase();
  const { remove } = createBaseDatabase();
  return remove;
}
