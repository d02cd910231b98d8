import {
  ActionList,
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  IndexFilters,
  IndexTable,
  InlineStack,
  Link,
  Popover,
  Text,
  Tooltip,
  useSetIndexFiltersMode,
} from "@shopify/polaris";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate, useNavigation, useSearchParams, useSubmit } from "react-router";

import type { BulkChoice } from "~/bulk/bulk-choice";
import { MAX_BULK_RUN_ORDERS } from "~/bulk/run-limits";
import { LABEL_PROGRESS_TEXT, type LabelProgress } from "~/labels/label-state";
import type { OrderTabCounts } from "~/labels/order-tabs.server";
import type { OrderListTab, OrderRow } from "~/routes/app.orders._index/order-list.server";

import { ByWidth } from "../shared/by-width";
import { usePhoneLayout } from "../shared/phone-layout";
import { PHONE_MEDIA_QUERY } from "../shared/phone-width";
import { BulkServicesModal } from "./bulk-services-modal";
import {
  changeSelection,
  describeSelection,
  EMPTY_SELECTION,
  isAllInView,
  type OrderSelection,
  selectedOrders,
  type SelectionChange,
  summarizeSelection,
} from "./order-selection";

// The Orders table: tabs, search by order name, cursor paging, one row per order awaiting
// shipment. Navigation goes through React Router (useNavigate / search params), so the admin frame keeps
// its context; a row opens the order's label page.

type SerializedPageInfo = {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
};

export type OrderListProps = {
  tab: OrderListTab;
  search: string;
  rows: OrderRow[];
  pageInfo: SerializedPageInfo;
  /** How many orders the app's own tabs hold (their badges), as Home's tiles count them. */
  counts?: OrderTabCounts;
  /** Set while a bulk run spends the store's rate limit and the orders are an earlier read. */
  shopifyAgeSeconds?: number | null;
  /**
   * The bulk selection, kept by the Orders route (it stays mounted while the list pages), so
   * orders selected on one page stay selected on the next (order-selection.ts).
   */
  selection: OrderSelection;
  onSelectionChange: (update: (current: OrderSelection) => OrderSelection) => void;
};

/** Polaris's IndexFilters bar with tabs, as drawn at phone and desktop widths alike (49 px). */
const FILTER_BAR_HEIGHT = "3.0625rem";

// On a phone Polaris lays the tabs in one strip that scrolls sideways, but nothing showed that it
// does: the strip simply ended mid-tab at the search button, the later tabs out of sight (issue
// 40). A shadow now marks each edge with tabs beyond it, the way a scrolling list does (the
// shadows scroll with the content, covers keep the ends clear), and a thin scroll bar shows.
const TABS_STRIP = "order-list-tabs";
const TABS_STRIP_STYLE = `${PHONE_MEDIA_QUERY} {
  .${TABS_STRIP} .Polaris-Tabs__Wrapper {
    overflow-x: auto;
    scrollbar-width: thin;
    background:
      linear-gradient(to right, var(--p-color-bg-surface) 30%, transparent) left center / 2rem 100% no-repeat local,
      linear-gradient(to left, var(--p-color-bg-surface) 30%, transparent) right center / 2rem 100% no-repeat local,
      radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, 0.2), transparent) left center / 0.75rem 100% no-repeat scroll,
      radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, 0.2), transparent) right center / 0.75rem 100% no-repeat scroll;
  }
}`;

// The Orders list's path: /app itself is the home (app._index.tsx).
export const ORDERS_PATH = "/app/orders";

const TABS: { id: OrderListTab; content: string; count?: keyof OrderTabCounts }[] = [
  { id: "all", content: "Awaiting shipment" },
  { id: "needs_label", content: "Needs label" },
  { id: "drafts", content: "Drafts", count: "drafts" },
  { id: "on_hold", content: "On hold", count: "onHold" },
  { id: "bought", content: "Bought" },
  // Not "Problems": the column of that name counts what to fix before buying, this tab what
  // happened after (issue 40: "Problems 0" beside rows saying "1 to fix" read as a lie).
  { id: "problems", content: "Flagged", count: "problems" },
  { id: "returns", content: "Return requested" },
];

/** What an empty tab says: what would show there, never "try the next page" (tabs filter before they page). */
const EMPTY_TAB: Record<OrderListTab, { heading: string; text: string }> = {
  all: { heading: "Nothing to ship", text: "Orders awaiting shipment appear here as they come in." },
  needs_label: { heading: "Nothing to label", text: "Every order awaiting shipment has a label." },
  drafts: { heading: "No drafts", text: "No draft labels. Open an order and choose a rate to create one." },
  on_hold: { heading: "Nothing on hold", text: "No draft waits for Shopify to release a hold." },
  bought: { heading: "Nothing bought", text: "No labels bought yet." },
  problems: {
    heading: "Nothing flagged",
    text: "No order changed or was held after its label was bought, and automatic drafting drafted every order.",
  },
  returns: {
    heading: "No return requests",
    text: "Returns your customers ask for from their accounts appear here.",
  },
};

const PROGRESS_TONE: Record<LabelProgress, "info" | "success" | "attention" | "critical" | undefined> = {
  none: undefined,
  draft: "info",
  on_hold: "attention",
  buying: "attention",
  bought: "success",
  tracking_pending: "attention",
  write_back_failed: "critical",
};

export function formatWeight(grams: number | null): string {
  if (grams === null) return "—";
  const pounds = grams / 453.59237;
  return pounds >= 1 ? `${pounds.toFixed(1)} lb` : `${(grams / 28.349523125).toFixed(1)} oz`;
}

/** The row's primary link: keyboard users tab to it; Polaris renders it as a React Router Link. */
function OrderLink({ row }: { row: OrderRow }) {
  return (
    <Link url={`/app/orders/${row.orderId}`} dataPrimaryLink monochrome removeUnderline>
      <Text as="span" fontWeight="semibold">
        {row.name}
      </Text>
    </Link>
  );
}

const formatOrderDate = (iso: string) => new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" });

/**
 * Where the order's label stands; an order Shopify shows fulfilled without one of ours was shipped,
 * and one Shopify needs no fulfillment for (cancelled or refunded) says so in Shopify's words.
 */
function LabelBadge({ row }: { row: OrderRow }) {
  if (row.shipped && row.label.progress === "none") return <Badge tone="success">Shipped</Badge>;
  if (row.nothingToShip && row.label.progress === "none") return <Badge>Fulfillment not required</Badge>;
  return <Badge tone={PROGRESS_TONE[row.label.progress]}>{LABEL_PROGRESS_TEXT[row.label.progress]}</Badge>;
}

function ProblemsCell({ row }: { row: OrderRow }) {
  if (row.returnRequested) {
    // Shipped, and the customer asks to send it back: the order page approves or declines it.
    return (
      <BlockStack gap="100" inlineAlign="start">
        <Badge tone="attention">Return requested</Badge>
        {row.attention.length === 0 ? null : <ProblemsCell row={{ ...row, returnRequested: false }} />}
      </BlockStack>
    );
  }
  if (row.attention.length === 0) return <ProblemsBadge problems={row.problems} />;
  // Spelled out, not only in a tooltip: this is what the merchant has to act on.
  return (
    <BlockStack gap="100" inlineAlign="start">
      <Badge tone="critical">Needs attention</Badge>
      {/* A table cell keeps its text on one line: these sentences wrap in the column instead. */}
      {row.attention.map((message) => (
        <div key={message} style={{ whiteSpace: "normal", overflowWrap: "anywhere", maxWidth: "22rem" }}>
          <Text as="p" variant="bodySm" tone="critical">
            {message}
          </Text>
        </div>
      ))}
      {row.problems && (row.problems.blocking > 0 || row.problems.warnings > 0) ? (
        <ProblemsBadge problems={row.problems} />
      ) : null}
    </BlockStack>
  );
}

function ProblemsBadge({ problems }: { problems: OrderRow["problems"] }) {
  if (!problems)
    return (
      <Text as="span" tone="subdued">
        —
      </Text>
    );
  const unchecked = problems.unchecked ? ` ${problems.unchecked.why}` : "";
  // Never "Ready" (nor only "to check") for what the list could not judge: the order page may block
  // it. Only a shipment with nothing blocking so far reads so; a blocker always says "to fix".
  if (problems.blocking === 0 && problems.unchecked) {
    return (
      <Tooltip content={`${problems.messages.join(" ")}${unchecked}`}>
        <Badge tone="attention">{problems.unchecked.badge}</Badge>
      </Tooltip>
    );
  }
  if (problems.blocking === 0 && problems.warnings === 0) return <Badge tone="success">Ready</Badge>;
  const text =
    problems.blocking > 0
      ? `${problems.blocking} to fix${problems.warnings ? `, ${problems.warnings} to check` : ""}`
      : `${problems.warnings} to check`;
  return (
    <Tooltip content={`${problems.messages.join(" ")}${unchecked}`}>
      <Badge tone={problems.blocking > 0 ? "critical" : "warning"}>{text}</Badge>
    </Tooltip>
  );
}

export function OrderList({
  tab,
  search,
  rows,
  pageInfo,
  counts,
  shopifyAgeSeconds = null,
  selection,
  onSelectionChange,
}: OrderListProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const submit = useSubmit();
  // The selection spans pages; the header checkbox and the table's count are this page's.
  const selectionPage = { rows, tab, search };
  const allInView = isAllInView(selection, selectionPage);
  const summary = summarizeSelection(selection, selectionPage);
  const selectionText = allInView ? null : describeSelection(summary);
  // Beside the table's "N selected" (this page's), the action names what it acts on when that
  // is more than this page's rows.
  const createLabelsText =
    selectionText === null
      ? "Create labels"
      : `Create labels for ${summary.total} ${summary.total === 1 ? "order" : "orders"}`;
  const handleSelectionChange = (type: `${SelectionChange["type"]}`, selecting: boolean, picked?: unknown) => {
    const change: SelectionChange = {
      type,
      selecting,
      selection:
        typeof picked === "string" || Array.isArray(picked) ? (picked as SelectionChange["selection"]) : undefined,
    };
    onSelectionChange((current) => changeSelection(current, change, selectionPage));
  };
  // "Create labels": a bulk run over the selected orders, by the shop's rules or one override.
  // "Select all" past this page: the server lists every order the tab and search show.
  const [choosingServices, setChoosingServices] = useState(false);
  const [tooMany, setTooMany] = useState<string | null>(null);
  // Phone-sized: one stacked cell per order instead of eight columns off the screen's edge.
  const condensed = usePhoneLayout();
  const createLabels = (choice: BulkChoice) => {
    setChoosingServices(false);
    // Said here, before anything is sent: the run would refuse it.
    if (!allInView && summary.total > MAX_BULK_RUN_ORDERS) {
      setTooMany(
        `You can create labels for up to ${MAX_BULK_RUN_ORDERS.toLocaleString("en-US")} orders at a time, and ${summary.total.toLocaleString("en-US")} are selected. Deselect some, then create labels again.`,
      );
      return;
    }
    setTooMany(null);
    const fields: Record<string, string> = allInView
      ? { scope: "all", tab, q: search }
      : { scope: "selected", orders: JSON.stringify(selectedOrders(selection)) };
    submit({ ...fields, choice: JSON.stringify(choice) }, { method: "post", action: "/app/bulk" });
  };
  const [moreWays, setMoreWays] = useState(false);
  const bulkChoices = [
    { content: "Create labels: cheapest rates", onAction: () => createLabels({ mode: "cheapest" }) },
    { content: "Create labels: fastest rates", onAction: () => createLabels({ mode: "fastest" }) },
    { content: "Create labels: choose services…", onAction: () => setChoosingServices(true) },
  ];
  const [params, setParams] = useSearchParams();
  const { mode, setMode } = useSetIndexFiltersMode();
  const [query, setQuery] = useState(search);
  const loading = navigation.state === "loading" && navigation.location.pathname === ORDERS_PATH;
  // Opening an order (or another screen) while a search is still pending must not be undone by
  // the search landing afterwards and navigating back to the list. The click cancels the pending
  // search at once (a render of the navigation state can come after the pause has run out).
  const leaving = navigation.state !== "idle" && navigation.location.pathname !== ORDERS_PATH;
  const pendingSearch = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPendingSearch = () => {
    if (pendingSearch.current !== null) clearTimeout(pendingSearch.current);
    pendingSearch.current = null;
  };

  // The search box drives `?q=` after a short pause, so typing does not load a page per key.
  useEffect(() => {
    if (query === search || leaving) return;
    const timer = setTimeout(() => {
      pendingSearch.current = null;
      const next = new URLSearchParams(params);
      if (query.trim()) next.set("q", query.trim());
      else next.delete("q");
      next.delete("after");
      next.delete("before");
      setParams(next);
    }, 350);
    pendingSearch.current = timer;
    return () => clearTimeout(timer);
  }, [query, search, params, setParams, leaving]);

  // Paged or switched from further down, the list goes back to its top at the click, not when the
  // rows arrive: a phone's filter bar, stuck to the top while scrolled, would otherwise jump back
  // into place under the merchant's eyes (a layout shift) the moment React Router restored the scroll.
  const showListTop = () => {
    if (window.scrollY > 0) window.scrollTo({ top: 0 });
  };

  const selectTab = useCallback(
    (index: number) => {
      const next = new URLSearchParams(params);
      const id = TABS[index]?.id ?? "all";
      if (id === "all") next.delete("tab");
      else next.set("tab", id);
      next.delete("after");
      next.delete("before");
      showListTop();
      setParams(next, { preventScrollReset: true });
    },
    [params, setParams],
  );

  // The list's identity: the rows of another tab, page or search replace these rather than move.
  const listKey = [tab, search, params.get("after") ?? "", params.get("before") ?? ""].join("\n");
  const listRef = useRef<HTMLDivElement>(null);
  // The page arrows are part of the list, so they are new too: the arrow the merchant pressed
  // gets the focus back, so a keyboard pages on where it was.
  const pagedWith = useRef<"Next" | "Previous" | null>(null);
  useEffect(() => {
    const direction = pagedWith.current;
    pagedWith.current = null;
    if (!direction || (document.activeElement && document.activeElement !== document.body)) return;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>("button") ?? [];
    const arrows = [...buttons].filter((b) => ["Next", "Previous"].includes(b.getAttribute("aria-label") ?? ""));
    const usable = arrows.filter((b) => !b.disabled && b.getAttribute("aria-disabled") !== "true");
    const target = usable.find((b) => b.getAttribute("aria-label") === direction) ?? usable[0];
    target?.focus({ preventScroll: true });
  }, [listKey]);

  const page = (direction: "after" | "before", cursor: string | null) => {
    if (!cursor) return;
    pagedWith.current = direction === "after" ? "Next" : "Previous";
    const next = new URLSearchParams(params);
    next.delete("after");
    next.delete("before");
    next.set(direction, cursor);
    showListTop();
    setParams(next, { preventScrollReset: true });
  };

  const open = (row: OrderRow) => {
    cancelPendingSearch();
    navigate(`/app/orders/${row.orderId}`);
  };

  // Text only: Polaris's EmptyState holds a tall placeholder until its picture loads and then
  // shrinks, which moved everything under it each time a tab came up empty (issue 25).
  const emptyState = (
    <Box paddingBlock="1000" paddingInline="400">
      <BlockStack gap="200" inlineAlign="center">
        <Text as="p" variant="headingMd" alignment="center">
          {search ? `No orders match "${search}"` : EMPTY_TAB[tab].heading}
        </Text>
        <Text as="p" tone="subdued" alignment="center">
          {search
            ? "Search by order number (e.g. #1001) finds orders awaiting shipment and orders with a return request."
            : EMPTY_TAB[tab].text}
        </Text>
      </BlockStack>
    </Box>
  );

  return (
    <Card padding="0">
      {/* The filter bar's height, held before the page is interactive: Polaris draws the bar only
          then, and the list under it moved down by its height at every load (issue 25). */}
      <style>{TABS_STRIP_STYLE}</style>
      <div className={TABS_STRIP} style={{ minHeight: FILTER_BAR_HEIGHT }}>
        <IndexFilters
          tabs={TABS.map((t) => ({
            id: t.id,
            // Polaris reads its badge as "New"; the tab's name says the count plainly. The trailing
            // space (not drawn: the flex item trims it) keeps the name and badge two words, as axe
            // and speech-input users read the visible "Drafts 3" (label-content-name-mismatch).
            ...(t.count && counts
              ? {
                  content: `${t.content} `,
                  badge: String(counts[t.count]),
                  accessibilityLabel: `${t.content} ${counts[t.count]}`,
                }
              : { content: t.content }),
          }))}
          selected={Math.max(
            0,
            TABS.findIndex((t) => t.id === tab),
          )}
          onSelect={selectTab}
          queryValue={query}
          queryPlaceholder="Search by order number, e.g. #1001"
          onQueryChange={setQuery}
          onQueryClear={() => setQuery("")}
          filters={[]}
          onClearAll={() => setQuery("")}
          mode={mode}
          setMode={setMode}
          loading={loading}
          canCreateNewView={false}
          // A phone's filter bar stuck to the top while scrolled snaps back into the page when the
          // next page scrolls to the top: a jump of the whole list (issue 25). It stays in place.
          disableStickyMode
          cancelAction={{ onAction: () => setQuery(search) }}
        />
      </div>
      {tooMany ? (
        <Box padding="300" paddingInline="400">
          <Banner tone="warning" onDismiss={() => setTooMany(null)}>
            <p>{tooMany}</p>
          </Banner>
        </Box>
      ) : null}
      {selectionText ? (
        <Box padding="300" paddingInline="400" background="bg-surface-secondary">
          <InlineStack gap="300" align="space-between" blockAlign="center">
            <Text as="p" fontWeight="semibold">
              {selectionText}
            </Text>
            <InlineStack gap="200">
              <Button onClick={() => onSelectionChange(() => EMPTY_SELECTION)}>Clear selection</Button>
              {/* With nothing ticked here the table shows no actions: the selection's own. */}
              {summary.onThisPage === 0 && !condensed ? (
                <Button variant="primary" onClick={() => createLabels({ mode: "rules" })}>
                  {createLabelsText}
                </Button>
              ) : null}
            </InlineStack>
          </InlineStack>
        </Box>
      ) : null}
      {/* Polaris's condensed list has no selection (IndexTable drops it below 490 px), so a phone
          could not start a bulk run at all: its own tick boxes and this bar stand in for the
          table's. By width from the server's HTML on (ByWidth), so it is there from the first paint
          and the list under it does not move down at hydration. */}
      <ByWidth
        wide={null}
        phone={
          <Box paddingBlock="200" paddingInline="400" borderBlockEndWidth="025" borderColor="border-secondary">
            <BlockStack gap="200">
              <InlineStack align="space-between" blockAlign="center" gap="200">
                <Checkbox
                  label={
                    allInView
                      ? "All selected"
                      : summary.onThisPage > 0
                        ? `${summary.onThisPage} selected`
                        : "Select all"
                  }
                  disabled={rows.length === 0}
                  checked={
                    allInView || summary.pageState === "all"
                      ? true
                      : summary.pageState === "some"
                        ? "indeterminate"
                        : false
                  }
                  onChange={(checked) => handleSelectionChange("page", checked)}
                />
                {summary.total > 0 || allInView ? (
                  <Button variant="primary" onClick={() => createLabels({ mode: "rules" })}>
                    {createLabelsText}
                  </Button>
                ) : null}
              </InlineStack>
              {summary.total > 0 || allInView ? (
                <InlineStack gap="200" wrap>
                  <Popover
                    active={moreWays}
                    onClose={() => setMoreWays(false)}
                    activator={
                      <Button disclosure onClick={() => setMoreWays((open) => !open)}>
                        More actions
                      </Button>
                    }
                  >
                    <ActionList actionRole="menuitem" onActionAnyItem={() => setMoreWays(false)} items={bulkChoices} />
                  </Popover>
                  {summary.pageState === "all" && pageInfo.hasNextPage && !allInView ? (
                    <Button variant="plain" onClick={() => handleSelectionChange("all", true)}>
                      Select every order in this view
                    </Button>
                  ) : null}
                  <Button variant="plain" onClick={() => onSelectionChange(() => EMPTY_SELECTION)}>
                    Clear
                  </Button>
                </InlineStack>
              ) : null}
            </BlockStack>
          </Box>
        }
      />
      {/* A click on an order's link (or row) opens it, whatever search is still pending. Keyed by
          the list it shows: another tab, page or search arrives as new rows in the place of the
          old (kept, dimmed, while it loads), so nothing on screen is pushed aside (issue 25: each
          switch moved the rows by hundreds of pixels). */}
      <div
        key={listKey}
        ref={listRef}
        style={{ opacity: loading ? 0.6 : 1, transition: "opacity var(--p-motion-duration-100)" }}
        onClickCapture={(event) => {
          if (event.target instanceof Element && event.target.closest("a[href], tr")) cancelPendingSearch();
        }}
      >
        {shopifyAgeSeconds !== null ? (
          <div style={{ padding: "8px 16px" }}>
            <Text as="p" tone="subdued">
              {`While labels are being created in bulk, these orders are shown as they were ${
                shopifyAgeSeconds < 5 ? "a moment" : `${shopifyAgeSeconds} seconds`
              } ago. Label statuses are up to date.`}
            </Text>
          </div>
        ) : null}
        <IndexTable
          condensed={condensed}
          resourceName={{ singular: "order", plural: "orders" }}
          itemCount={rows.length}
          selectedItemsCount={allInView ? "All" : summary.onThisPage}
          hasMoreItems={pageInfo.hasNextPage}
          onSelectionChange={handleSelectionChange}
          promotedBulkActions={[{ content: createLabelsText, onAction: () => createLabels({ mode: "rules" }) }]}
          bulkActions={bulkChoices}
          loading={loading}
          emptyState={emptyState}
          headings={[
            { title: "Order" },
            { title: "Date" },
            { title: "Customer" },
            { title: "Destination" },
            { title: "Items", alignment: "end" },
            { title: "Weight", alignment: "end" },
            { title: "Label" },
            { title: "Problems" },
          ]}
          pagination={{
            hasNext: pageInfo.hasNextPage,
            hasPrevious: pageInfo.hasPreviousPage,
            onNext: () => page("after", pageInfo.endCursor),
            onPrevious: () => page("before", pageInfo.startCursor),
          }}
        >
          {rows.map((row, index) => (
            <IndexTable.Row
              id={row.orderGid}
              key={row.orderGid}
              position={index}
              selected={allInView || selection.orders.has(row.orderGid)}
              onClick={() => open(row)}
            >
              {condensed ? (
                // A phone: one cell per order, what decides the next step first (Polaris's condensed list).
                <div style={{ padding: "var(--p-space-300) var(--p-space-400)", width: "100%" }}>
                  <InlineStack gap="300" blockAlign="start" wrap={false}>
                    {/* Ticking selects; a tap anywhere else on the row still opens the order. */}
                    <div onClick={(event) => event.stopPropagation()} role="presentation">
                      <Checkbox
                        label={`Select ${row.name}`}
                        labelHidden
                        checked={allInView || selection.orders.has(row.orderGid)}
                        onChange={(checked) => handleSelectionChange("single", checked, row.orderGid)}
                      />
                    </div>
                    <div style={{ flex: 1, minWidth: 0 }}>
                      <BlockStack gap="150">
                        <InlineStack align="space-between" blockAlign="center" gap="200">
                          <OrderLink row={row} />
                          <Text as="span" tone="subdued" variant="bodySm">
                            {formatOrderDate(row.createdAt)}
                          </Text>
                        </InlineStack>
                        <Text as="span" variant="bodySm">
                          {[row.customer, row.destination].filter(Boolean).join(" · ") || "—"}
                        </Text>
                        <Text as="span" variant="bodySm" tone="subdued">
                          {`${row.items} ${row.items === 1 ? "item" : "items"} · ${formatWeight(row.weightGrams)}`}
                        </Text>
                        <InlineStack gap="200" blockAlign="start" wrap>
                          <LabelBadge row={row} />
                          <ProblemsCell row={row} />
                        </InlineStack>
                      </BlockStack>
                    </div>
                  </InlineStack>
                </div>
              ) : (
                <>
                  <IndexTable.Cell>
                    <OrderLink row={row} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>{formatOrderDate(row.createdAt)}</IndexTable.Cell>
                  <IndexTable.Cell>{row.customer ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>{row.destination ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {row.items}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {formatWeight(row.weightGrams)}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <BlockStack inlineAlign="start">
                      <LabelBadge row={row} />
                    </BlockStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <ProblemsCell row={row} />
                  </IndexTable.Cell>
                </>
              )}
            </IndexTable.Row>
          ))}
        </IndexTable>
      </div>
      <BulkServicesModal
        open={choosingServices}
        selection={
          allInView
            ? "every order this view shows"
            : `${summary.total} selected ${summary.total === 1 ? "order" : "orders"}`
        }
        onClose={() => setChoosingServices(false)}
        onCreate={createLabels}
      />
    </Card>
  );
}
