import { createBaseDatabase } from "./database";

export default function globalSetup() {
  createBaseDatabase();
}
