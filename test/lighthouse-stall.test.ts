import { describe, expect, it } from "vitest";

import { findPresentationStall } from "../scripts/lighthouse-stall";

// Synthetic traces shaped like Chromium's: the page's renderer (pid 7) with its main thread (70)
// and compositor thread (71); times in milliseconds from navigation start.
const NAV_TS = 1_000_000_000;
const at = (ms: number) => NAV_TS + ms * 1000;

type Main = {
  /** domContentLoadedEventEnd */
  domReady?: number;
  /** The render-blocking stylesheet's request finished (never, when null). */
  stylesheetDone?: number | null;
  /** Main-thread tasks: [start, duration]. */
  tasks?: [number, number][];
  /** BeginMainThreadFrame times. */
  frames?: number[];
};

function mainThread({ domReady, stylesheetDone, tasks = [], frames = [] }: Main) {
  const on = (name: string, ms: number, args: object = {}) => ({ name, ph: "I", ts: at(ms), pid: 7, tid: 70, args });
  return [
    ...(domReady === undefined ? [] : [on("domContentLoadedEventEnd", domReady)]),
    on("ResourceSendRequest", 60, { data: { requestId: "7.2", renderBlocking: "blocking" } }),
    on("ResourceSendRequest", 70, { data: { requestId: "7.3", renderBlocking: "non_blocking" } }),
    ...(stylesheetDone === null || stylesheetDone === undefined
      ? []
      : [on("ResourceFinish", stylesheetDone, { data: { requestId: "7.2" } })]),
    ...tasks.map(([start, ms]) => ({ name: "RunTask", ph: "X", ts: at(start), dur: ms * 1000, pid: 7, tid: 70 })),
    ...frames.map((ms) => on("BeginMainThreadFrame", ms)),
  ];
}

function trace(
  compositor: { activate: number[]; draw: number[] },
  paints: { first: number; largest?: number },
  main: Main = {},
) {
  return {
    traceEvents: [
      ...mainThread(main),
      { name: "thread_name", ph: "M", ts: 0, pid: 7, tid: 71, args: { name: "Compositor" } },
      { name: "thread_name", ph: "M", ts: 0, pid: 7, tid: 70, args: { name: "CrRendererMain" } },
      // The blank page Lighthouse starts from, then the app's page.
      {
        name: "navigationStart",
        ph: "R",
        ts: at(-500),
        pid: 7,
        tid: 70,
        args: { data: { isLoadingMainFrame: true, documentLoaderURL: "" } },
      },
      {
        name: "navigationStart",
        ph: "R",
        ts: at(0),
        pid: 7,
        tid: 70,
        args: { data: { isLoadingMainFrame: true, documentLoaderURL: "http://127.0.0.1:4510/app/orders" } },
      },
      ...compositor.activate.map((ms) => ({
        name: "ActivateLayerTree",
        ph: "I",
        ts: at(ms),
        pid: 7,
        tid: 71,
        args: {},
      })),
      ...compositor.draw.map((ms) => ({ name: "DrawFrame", ph: "I", ts: at(ms), pid: 7, tid: 71, args: {} })),
      // Another renderer's compositor drawing meanwhile does not count.
      { name: "DrawFrame", ph: "I", ts: at(400), pid: 9, tid: 71, args: {} },
      { name: "firstPaint", ph: "R", ts: at(paints.first), pid: 7, tid: 70, args: {} },
      {
        name: "largestContentfulPaint::Candidate",
        ph: "R",
        ts: at(paints.largest ?? paints.first),
        pid: 7,
        tid: 70,
        args: {},
      },
    ],
  };
}

describe("findPresentationStall", () => {
  it("finds nothing when each activated frame is drawn at the next frame", () => {
    expect(findPresentationStall(trace({ activate: [150, 230], draw: [100, 152, 232] }, { first: 154 }))).toBeNull();
  });

  it("finds a painted frame held undrawn until a second later, as Lighthouse's late first paint", () => {
    const held = trace({ activate: [358], draw: [285, 1289] }, { first: 1299 });
    expect(findPresentationStall(held)).toEqual({ kind: "held", heldMs: 931, fromMs: 358, drawnAtMs: 1289 });
  });

  it("finds a frame held after the first paint that delays the largest one", () => {
    const held = trace({ activate: [150, 400], draw: [152, 1390] }, { first: 154, largest: 1400 });
    expect(findPresentationStall(held)).toEqual({ kind: "held", heldMs: 990, fromMs: 400, drawnAtMs: 1390 });
  });

  it("counts a frame still undrawn at the paint Lighthouse read", () => {
    expect(findPresentationStall(trace({ activate: [300], draw: [] }, { first: 900 }))).toMatchObject({
      kind: "held",
      heldMs: 600,
    });
  });

  it("finds a page ready to paint, its thread idle, that gets no frame until a second later", () => {
    const idle = {
      domReady: 434,
      stylesheetDone: 242,
      tasks: [
        [468, 60],
        [688, 1],
      ] as [number, number][],
    };
    const late = trace({ activate: [1287], draw: [1288] }, { first: 1297 }, { ...idle, frames: [1275] });
    expect(findPresentationStall(late)).toEqual({ kind: "idle", heldMs: 841, fromMs: 434, drawnAtMs: 1275 });
  });

  it("does not count a wait the page explains: a long task, a stylesheet still loading, a frame in time", () => {
    const ready = { domReady: 434, stylesheetDone: 242, frames: [1275] };
    const busy = trace({ activate: [1287], draw: [1288] }, { first: 1297 }, { ...ready, tasks: [[900, 300]] });
    expect(findPresentationStall(busy)).toBeNull();
    const loading = trace({ activate: [1287], draw: [1288] }, { first: 1297 }, { ...ready, stylesheetDone: 1200 });
    expect(findPresentationStall(loading)).toBeNull();
    const unfinished = trace({ activate: [1287], draw: [1288] }, { first: 1297 }, { ...ready, stylesheetDone: null });
    expect(findPresentationStall(unfinished)).toBeNull();
    const inTime = trace({ activate: [450], draw: [451] }, { first: 455 }, { ...ready, frames: [440] });
    expect(findPresentationStall(inTime)).toBeNull();
  });

  it("answers null for a trace without the page's navigation or paint", () => {
    expect(findPresentationStall({ traceEvents: [] })).toBeNull();
    expect(findPresentationStall([{ name: "firstPaint", ts: 1, pid: 1, tid: 1 }])).toBeNull();
  });
});
