import { createBaseDatabase } from "./database";

export default function globalSetup() {
  const { remove } = createBaseDatabase();
  return remove;
}
