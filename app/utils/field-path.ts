/** A zod issue path as forms and error fields name it: ["rules", 2, "countries"] → "rules[2].countries". */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>, empty = ""): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? empty : out;
}
