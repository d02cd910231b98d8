// Bulk query operations (`bulkOperationRunQuery`), as Shopify's bulk operations guide describes
// them (https://shopify.dev/docs/api/usage/bulk-operations/queries): the query runs in the
// background, free of query cost; `bulkOperation(id:)` (or `node(id:)`) tells its status; once
// COMPLETED, `url` serves the result as JSONL, one object a line, each node of a nested connection
// on a line of its own with `__parentId` naming the object it belongs to.
//
// What is checked, as Shopify's docs state it: at least one connection and at most five; a query,
// not a mutation; no top-level `node` or `nodes`; a connection nested in at most two others
// (orders > fulfillmentOrders > lineItems); the object holding a nested connection selects `id`;
// at most five bulk queries running at once per shop (API 2026-01 and later).
// Not emulated: Shopify's timings (here an operation completes `durationMs` after it starts, by
// default 1 s plus 1 ms an object), `groupObjects` (lines come parent first, never grouped),
// cancelling, failures and partial data, the bulk_operations/finish webhook, expiry after 7 days.

import {
  type DocumentNode,
  type FieldNode,
  getNamedType,
  type GraphQLNamedType,
  type GraphQLSchema,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  type SelectionSetNode,
  validate,
} from "graphql";

type Rec = Record<string, unknown>;

export const BULK_RESULTS_PATH = "/__emulator/bulk-operations/";
const MAX_CONNECTIONS = 5;
const MAX_NESTED_DEPTH = 3;
const MAX_RUNNING = 5;

export type BulkUserError = { field: string[]; message: string; code: "INVALID" | "LIMIT_REACHED" };

interface BulkOperationRecord {
  readonly id: string;
  readonly number: number;
  readonly query: string;
  readonly createdAt: number;
  readonly completesAt: number;
  readonly lines: string[];
  readonly rootObjectCount: number;
}

export interface BulkOperations {
  /** The mutation's payload: the operation as it starts, or userErrors. */
  runQuery: (query: string) => Promise<Rec>;
  /** The operation as `bulkOperation(id:)` and `node(id:)` answer it, or null. */
  find: (id: string) => Rec | null;
  /** The latest query operation (`currentBulkOperation`), or null. */
  current: () => Rec | null;
  /** The JSONL file behind a completed operation's `url` path, or null. */
  resultFile: (path: string) => string | null;
  reset: () => void;
}

export interface BulkOperationsOptions {
  schema: GraphQLSchema;
  shop: string;
  now: () => number;
  /** Runs the inner query on the store with every connection unbounded. */
  execute: (document: DocumentNode) => Promise<{ data?: Rec | null; errors?: readonly { message: string }[] }>;
  /** How long an operation runs; default 1 s plus 1 ms an object. */
  durationMs?: (objectCount: number) => number;
}

const defaultDuration = (objects: number) => 1_000 + objects;
const invalid = (message: string): BulkUserError => ({ field: ["query"], message, code: "INVALID" });

// The selections of a selection set, fragments spread in.
function fieldsOf(document: DocumentNode, selectionSet: SelectionSetNode): FieldNode[] {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const out: FieldNode[] = [];
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) out.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(selectionSet);
  return out;
}

const isConnection = (type: GraphQLNamedType) => type.name.endsWith("Connection");

/** What Shopify refuses in a bulk query's shape (after it validated against the schema). */
function checkBulkQuery(schema: GraphQLSchema, document: DocumentNode): BulkUserError | null {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operations[0];
  if (operations.length !== 1 || !operation) return invalid("Bulk queries must contain exactly one operation.");
  if (operation.operation !== "query") return invalid("Bulk queries cannot contain mutations.");
  let connections = 0;
  let problem: string | null = null;
  const walk = (set: SelectionSetNode, type: GraphQLNamedType, depth: number, path: string) => {
    if (!isObjectType(type) && !isInterfaceType(type)) return;
    const fields = fieldsOf(document, set);
    const selectsId = fields.some((f) => f.name.value === "id");
    for (const field of fields) {
      const definition = type.getFields()[field.name.value];
      if (!definition || !field.selectionSet) continue;
      const named = getNamedType(definition.type);
      let inner = depth;
      if (isConnection(named)) {
        connections += 1;
        inner = depth + 1;
        if (inner > MAX_NESTED_DEPTH)
          problem ??= `Bulk queries cannot nest connections more than ${MAX_NESTED_DEPTH} deep (${path}${field.name.value}).`;
        if (depth > 0 && !selectsId)
          problem ??= `The parent 'node' field for a nested connection must select the 'id' field (${path}${field.name.value}).`;
      }
      walk(field.selectionSet, named, inner, `${path}${field.name.value}.`);
    }
  };
  const root = schema.getQueryType();
  if (!root) return invalid("No query type.");
  const top = fieldsOf(document, operation.selectionSet);
  if (top.some((f) => f.name.value === "node" || f.name.value === "nodes"))
    return invalid("Bulk queries cannot use the top-level node or nodes fields.");
  walk(operation.selectionSet, root, 0, "");
  if (problem) return invalid(problem);
  if (connections === 0) return invalid("Bulk queries must contain at least one connection.");
  if (connections > MAX_CONNECTIONS)
    return invalid(`Bulk queries cannot contain more than ${MAX_CONNECTIONS} connections.`);
  return null;
}

const isConnectionValue = (value: unknown): value is { edges?: { node: Rec }[]; nodes?: Rec[] } =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  (Array.isArray((value as Rec).edges) || Array.isArray((value as Rec).nodes)) &&
  Object.keys(value).every((k) => k === "edges" || k === "nodes" || k === "pageInfo");

const nodesOf = (connection: { edges?: { node: Rec }[]; nodes?: Rec[] }): Rec[] =>
  connection.nodes ?? (connection.edges ?? []).map((e) => e.node);

/** The answer's objects as JSONL lines: each connection's nodes apart, children after their parent. */
function toLines(data: Rec): { lines: string[]; roots: number } {
  const lines: string[] = [];
  let roots = 0;
  const emit = (node: Rec, parentId: string | null) => {
    const own: Rec = {};
    const children: Rec[] = [];
    for (const [key, value] of Object.entries(node)) {
      if (isConnectionValue(value)) children.push(...nodesOf(value));
      else own[key] = value;
    }
    if (parentId !== null) own.__parentId = parentId;
    lines.push(JSON.stringify(own));
    for (const child of children) emit(child, typeof node.id === "string" ? node.id : null);
  };
  for (const value of Object.values(data)) {
    if (!isConnectionValue(value)) continue;
    for (const node of nodesOf(value)) {
      roots += 1;
      emit(node, null);
    }
  }
  return { lines, roots };
}

export function createBulkOperations(options: BulkOperationsOptions): BulkOperations {
  const operations = new Map<string, BulkOperationRecord>();
  let counter = 0;
  const duration = options.durationMs ?? defaultDuration;
  const urlOf = (op: BulkOperationRecord) => `https://${options.shop}${BULK_RESULTS_PATH}${op.number}.jsonl`;
  const isDone = (op: BulkOperationRecord) => options.now() >= op.completesAt;

  const view = (op: BulkOperationRecord): Rec => {
    const done = isDone(op);
    // Until it completes, the counts grow with the time it has run.
    const share = done ? 1 : Math.min(1, (options.now() - op.createdAt) / Math.max(1, op.completesAt - op.createdAt));
    return {
      __typename: "BulkOperation",
      id: op.id,
      type: "QUERY",
      status: done ? "COMPLETED" : "RUNNING",
      errorCode: null,
      query: op.query,
      createdAt: new Date(op.createdAt).toISOString(),
      completedAt: done ? new Date(op.completesAt).toISOString() : null,
      objectCount: String(Math.floor(op.lines.length * share)),
      rootObjectCount: String(Math.floor(op.rootObjectCount * share)),
      fileSize: done ? String(op.lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0)) : null,
      url: done && op.lines.length > 0 ? urlOf(op) : null,
      partialDataUrl: null,
    };
  };

  return {
    async runQuery(query) {
      const failed = (error: BulkUserError) => ({ bulkOperation: null, userErrors: [error] });
      let document: DocumentNode;
      try {
        document = parse(query);
      } catch (error) {
        return failed(invalid(`Invalid bulk query: ${(error as Error).message}`));
      }
      const errors = validate(options.schema, document);
      if (errors.length > 0) return failed(invalid(`Invalid bulk query: ${errors.map((e) => e.message).join("; ")}`));
      const refused = checkBulkQuery(options.schema, document);
      if (refused) return failed(refused);
      const running = [...operations.values()].filter((op) => !isDone(op)).length;
      if (running >= MAX_RUNNING) {
        return failed({
          field: ["query"],
          message: `A shop can run ${MAX_RUNNING} bulk query operations at a time.`,
          code: "LIMIT_REACHED",
        });
      }
      // The store as it is when the operation starts.
      const result = await options.execute(document);
      if (!result.data || result.errors?.length) {
        return failed(invalid(`Invalid bulk query: ${(result.errors ?? []).map((e) => e.message).join("; ")}`));
      }
      const { lines, roots } = toLines(result.data);
      counter += 1;
      const createdAt = options.now();
      const op: BulkOperationRecord = {
        id: `gid://shopify/BulkOperation/${720000 + counter}`,
        number: counter,
        query,
        createdAt,
        completesAt: createdAt + duration(lines.length),
        lines,
        rootObjectCount: roots,
      };
      operations.set(op.id, op);
      return { bulkOperation: { ...view(op), status: "CREATED" }, userErrors: [] };
    },
    find: (id) => {
      const op = operations.get(id);
      return op ? view(op) : null;
    },
    current: () => {
      const latest = [...operations.values()].at(-1);
      return latest ? view(latest) : null;
    },
    resultFile: (path) => {
      const number = Number(path.slice(BULK_RESULTS_PATH.length).replace(/\.jsonl$/, ""));
      const op = [...operations.values()].find((o) => o.number === number);
      return op && isDone(op) ? op.lines.map((l) => `${l}\n`).join("") : null;
    },
    reset: () => {
      operations.clear();
    },
  };
}
