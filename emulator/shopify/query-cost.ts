import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLCompositeType,
  type GraphQLField,
  GraphQLObjectType,
  type GraphQLSchema,
  GraphQLUnionType,
  isCompositeType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";

// Shopify's published cost rules for the Admin GraphQL API, applied to a document before it runs
// ("requested") and to the data it returned ("actual"):
// - a scalar or enum field costs 0, an object 1;
// - an interface or union costs the most expensive of its possible selections;
// - a connection costs 2 plus, for each node it may return (its `first`/`last`), the node's cost;
//   nested connections therefore multiply;
// - a mutation field costs 10 plus what its payload selects.
// Lists of objects that are not connections are counted once, like one object: Shopify sizes only
// connections. The emulator fills `extensions.cost` with these numbers and test/query-cost.test.ts
// holds every app document to Shopify's single-query limit.

export const SINGLE_QUERY_MAX_COST = 1000;
const MUTATION_FIELD_COST = 10;
const CONNECTION_BASE_COST = 2;
// Shopify's largest page; a connection whose size cannot be resolved is costed at this worst case.
export const MAX_PAGE_SIZE = 250;

export interface RequestedQueryCost {
  readonly cost: number;
  // Connections whose page size came from neither a literal nor a variable (costed at MAX_PAGE_SIZE).
  readonly unsizedConnections: readonly string[];
}

interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly unsized: string[];
}

function selectOperation(document: DocumentNode, operationName?: string): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
}

function collectFragments(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
}

function isConnection(type: GraphQLCompositeType): boolean {
  return type.name.endsWith("Connection") && type instanceof GraphQLObjectType && "pageInfo" in type.getFields();
}

function valueOf(node: ValueNode | undefined, variables: Readonly<Record<string, unknown>>): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  if (node.kind === Kind.INT) return Number(node.value);
  return undefined;
}

// The fields a selection set picks for one concrete type, fragments flattened.
function fieldsFor(selectionSet: SelectionSetNode, typeName: string, walk: Walk, possible: Set<string>): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition?.name.value;
      if (!condition || condition === typeName || possible.has(condition))
        fields.push(...fieldsFor(selection.selectionSet, typeName, walk, possible));
    } else {
      const fragment = walk.fragments.get(selection.name.value);
      const condition = fragment?.typeCondition.name.value;
      if (fragment && (condition === typeName || (condition !== undefined && possible.has(condition))))
        fields.push(...fieldsFor(fragment.selectionSet, typeName, walk, possible));
    }
  }
  return fields;
}

// Interfaces and unions the object type belongs to, so `... on Node` applies to an Order.
const supertypeCache = new WeakMap<GraphQLObjectType, Set<string>>();
function supertypesOf(type: GraphQLObjectType, schema: GraphQLSchema): Set<string> {
  const cached = supertypeCache.get(type);
  if (cached) return cached;
  const names = new Set(type.getInterfaces().map((i) => i.name));
  for (const candidate of Object.values(schema.getTypeMap())) {
    if (candidate instanceof GraphQLUnionType && candidate.getTypes().includes(type)) names.add(candidate.name);
  }
  supertypeCache.set(type, names);
  return names;
}

function concreteTypes(type: GraphQLCompositeType, schema: GraphQLSchema): readonly GraphQLObjectType[] {
  return type instanceof GraphQLObjectType ? [type] : schema.getPossibleTypes(type);
}

/** The cost of the children a selection set picks on a composite type (the object itself excluded). */
function selectionCost(type: GraphQLCompositeType, selectionSet: SelectionSetNode | undefined, walk: Walk): number {
  if (!selectionSet) return 0;
  let max = 0;
  for (const concrete of concreteTypes(type, walk.schema)) {
    const fieldDefs = concrete.getFields();
    const possible = type instanceof GraphQLObjectType ? supertypesOf(concrete, walk.schema) : new Set([type.name]);
    const seen = new Set<string>();
    let sum = 0;
    for (const field of fieldsFor(selectionSet, concrete.name, walk, possible)) {
      const key = field.alias?.value ?? field.name.value;
      // Fields merged from several fragments are fetched once.
      if (seen.has(key)) continue;
      seen.add(key);
      const definition = fieldDefs[field.name.value];
      if (definition) sum += fieldCost(definition, field, walk);
    }
    max = Math.max(max, sum);
  }
  return max;
}

function nodeSelectionCost(connection: GraphQLObjectType, field: FieldNode, walk: Walk): number {
  // The cost of one node, whether it is selected through `nodes` or `edges { node }`.
  const fields = connection.getFields();
  let perNode = 0;
  for (const selection of fieldsFor(field.selectionSet ?? emptySet, connection.name, walk, new Set())) {
    const name = selection.name.value;
    if (name === "nodes" && fields.nodes) {
      const nodeType = getNamedType(fields.nodes.type);
      if (isCompositeType(nodeType))
        perNode = Math.max(perNode, 1 + selectionCost(nodeType, selection.selectionSet, walk));
    }
    if (name === "edges" && fields.edges) {
      const edgeType = getNamedType(fields.edges.type);
      if (!(edgeType instanceof GraphQLObjectType)) continue;
      const nodeDef = edgeType.getFields().node;
      const nodeType = nodeDef ? getNamedType(nodeDef.type) : undefined;
      for (const inner of fieldsFor(selection.selectionSet ?? emptySet, edgeType.name, walk, new Set())) {
        if (inner.name.value === "node" && nodeType && isCompositeType(nodeType))
          perNode = Math.max(perNode, 1 + selectionCost(nodeType, inner.selectionSet, walk));
      }
    }
  }
  return perNode;
}

const emptySet: SelectionSetNode = { kind: Kind.SELECTION_SET, selections: [] };

function fieldCost(definition: GraphQLField<unknown, unknown>, field: FieldNode, walk: Walk): number {
  const type = getNamedType(definition.type);
  if (!isCompositeType(type)) return 0;
  if (isConnection(type) && type instanceof GraphQLObjectType) {
    const args = new Map(field.arguments?.map((a) => [a.name.value, a.value]));
    const size = valueOf(args.get("first"), walk.variables) ?? valueOf(args.get("last"), walk.variables);
    let pageSize: number;
    if (typeof size === "number") pageSize = size;
    else {
      walk.unsized.push(field.name.value);
      pageSize = MAX_PAGE_SIZE;
    }
    return CONNECTION_BASE_COST + pageSize * nodeSelectionCost(type, field, walk);
  }
  return 1 + selectionCost(type, field.selectionSet, walk);
}

/**
 * The cost Shopify charges before running a document: every connection at its full page size.
 * Variables size connections the way Shopify sizes them (from the values sent).
 */
export function calculateRequestedQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  options: { operationName?: string; variables?: Record<string, unknown> } = {},
): RequestedQueryCost {
  const operation = selectOperation(document, options.operationName);
  if (!operation) return { cost: 0, unsizedConnections: [] };
  const defaults: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const value = valueOf(definition.defaultValue, {});
    if (value !== undefined) defaults[definition.variable.name.value] = value;
  }
  const walk: Walk = {
    schema,
    fragments: collectFragments(document),
    variables: { ...defaults, ...options.variables },
    unsized: [],
  };
  const root = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!root) return { cost: 0, unsizedConnections: [] };
  let cost = 0;
  const fields = root.getFields();
  for (const field of fieldsFor(operation.selectionSet, root.name, walk, new Set())) {
    const definition = fields[field.name.value];
    if (!definition) continue;
    if (operation.operation === "mutation") {
      const payload = getNamedType(definition.type);
      cost += MUTATION_FIELD_COST + (isCompositeType(payload) ? selectionCost(payload, field.selectionSet, walk) : 0);
    } else {
      cost += fieldCost(definition, field, walk);
    }
  }
  return { cost, unsizedConnections: walk.unsized };
}

type Data = Record<string, unknown>;
const isData = (value: unknown): value is Data => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What the query cost once it ran: the same rules, with each connection counted by the nodes it
 * actually returned and null objects free. Shopify refunds the difference to the bucket.
 */
export function calculateActualQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  data: unknown,
  options: { operationName?: string } = {},
): number {
  const operation = selectOperation(document, options.operationName);
  const root = operation?.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!operation || !root || !isData(data)) return 0;
  const walk: Walk = { schema, fragments: collectFragments(document), variables: {}, unsized: [] };

  const objectCost = (type: GraphQLCompositeType, selectionSet: SelectionSetNode | undefined, value: Data): number => {
    const typename = typeof value.__typename === "string" ? value.__typename : undefined;
    const candidates = concreteTypes(type, schema).filter((t) => !typename || t.name === typename);
    let max = 0;
    for (const concrete of candidates) {
      const defs = concrete.getFields();
      const possible = type instanceof GraphQLObjectType ? supertypesOf(concrete, schema) : new Set([type.name]);
      let sum = 0;
      const seen = new Set<string>();
      for (const field of fieldsFor(selectionSet ?? emptySet, concrete.name, walk, possible)) {
        const key = field.alias?.value ?? field.name.value;
        if (seen.has(key)) continue;
        seen.add(key);
        const def = defs[field.name.value];
        if (def) sum += actualFieldCost(def, field, value[key]);
      }
      max = Math.max(max, sum);
    }
    return max;
  };

  const actualFieldCost = (def: GraphQLField<unknown, unknown>, field: FieldNode, value: unknown): number => {
    const type = getNamedType(def.type);
    if (!isCompositeType(type) || value === null || value === undefined) return 0;
    if (isConnection(type) && type instanceof GraphQLObjectType && isData(value)) {
      const nodeType = getNamedType(type.getFields().nodes?.type ?? def.type);
      let nodes = 0;
      for (const selection of fieldsFor(field.selectionSet ?? emptySet, type.name, walk, new Set())) {
        const items = value[selection.alias?.value ?? selection.name.value];
        if (!Array.isArray(items) || !isCompositeType(nodeType)) continue;
        if (selection.name.value === "nodes") {
          nodes = Math.max(
            nodes,
            sumOf(items.map((n) => (isData(n) ? 1 + objectCost(nodeType, selection.selectionSet, n) : 0))),
          );
        } else if (selection.name.value === "edges") {
          const edgeNode = selection.selectionSet?.selections.find(
            (s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === "node",
          );
          const key = edgeNode?.alias?.value ?? "node";
          nodes = Math.max(
            nodes,
            sumOf(
              items.map((e) => {
                const node = isData(e) ? e[key] : undefined;
                return isData(node) ? 1 + objectCost(nodeType, edgeNode?.selectionSet, node) : 0;
              }),
            ),
          );
        }
      }
      return CONNECTION_BASE_COST + nodes;
    }
    const one = (item: unknown) => (isData(item) ? 1 + objectCost(type, field.selectionSet, item) : 0);
    // A list that is not a connection is counted as one object, as in the requested cost.
    return Array.isArray(value) ? Math.max(0, ...value.map(one)) : one(value);
  };

  let cost = 0;
  const fields = root.getFields();
  for (const field of fieldsFor(operation.selectionSet, root.name, walk, new Set())) {
    const def = fields[field.name.value];
    if (!def) continue;
    const value = data[field.alias?.value ?? field.name.value];
    if (operation.operation === "mutation") {
      const payload = getNamedType(def.type);
      cost +=
        MUTATION_FIELD_COST +
        (isCompositeType(payload) && isData(value) ? objectCost(payload, field.selectionSet, value) : 0);
    } else {
      cost += actualFieldCost(def, field, value);
    }
  }
  return cost;
}

const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0);
