// Finds, in a Lighthouse run's trace, Chromium sitting on a page that is ready to paint: for about
// a whole second nothing is drawn while the page's own thread is idle. Lighthouse then takes the
// late draw as the first paint, and its estimate counts every request and script that ran
// meanwhile before the paint (an Orders run scores ~88 instead of ~95). Upstream:
// GoogleChrome/lighthouse#17148 (viz withholds BeginFrames from a client it judges unresponsive,
// for up to a second; seen on PageSpeed Insights too). Two shapes of it are seen here:
//   - held: the renderer's compositor activates a painted frame, then draws it a second later;
//   - idle: parsed, styled and laid out, no render-blocking request left, the page asks for no
//     frame at all until a second later.
// bench:lighthouse runs such a run again rather than count Chromium's stall as the app's.
import { z } from "zod";

// What is read of a Chrome trace (Lighthouse's `--save-assets` writes it as <report>-0.trace.json).
const TraceEventSchema = z.object({
  name: z.string(),
  ph: z.string().optional(),
  ts: z.number(),
  dur: z.number().optional(),
  pid: z.number(),
  tid: z.number(),
  args: z
    .object({
      name: z.string().optional(),
      data: z
        .object({
          documentLoaderURL: z.string().optional(),
          isLoadingMainFrame: z.boolean().optional(),
          requestId: z.string().optional(),
          renderBlocking: z.string().optional(),
        })
        .passthrough()
        .optional(),
    })
    .passthrough()
    .optional(),
});
const TraceSchema = z.union([z.object({ traceEvents: z.array(z.unknown()) }), z.array(z.unknown())]);
type TraceEvent = z.infer<typeof TraceEventSchema>;

/** Nothing drawn this long, with the page ready and its thread idle, is Chromium's stall. */
export const STALL_MS = 500;
/** "Idle": the page's thread ran less than this in the stall's window. */
const IDLE_BUSY_MS = 100;

export type PresentationStall = {
  kind: "held" | "idle";
  /** How long nothing was drawn, and from when to when (ms from the page's navigation start). */
  heldMs: number;
  fromMs: number;
  drawnAtMs: number;
};

/**
 * The stall before the page's first or largest paint, if there was one. Null when each frame
 * the page's compositor activated was drawn within STALL_MS, and the page never sat ready and
 * idle that long before its first paint.
 */
export function findPresentationStall(trace: unknown): PresentationStall | null {
  const parsed = TraceSchema.parse(trace);
  const events: TraceEvent[] = [];
  for (const raw of Array.isArray(parsed) ? parsed : parsed.traceEvents) {
    const event = TraceEventSchema.safeParse(raw);
    if (event.success) events.push(event.data);
  }
  events.sort((a, b) => a.ts - b.ts);
  const navigation = events.find(
    (e) =>
      e.name === "navigationStart" &&
      e.args?.data?.isLoadingMainFrame === true &&
      (e.args.data.documentLoaderURL ?? "").startsWith("http"),
  );
  if (!navigation) return null;
  const { pid } = navigation;
  const page = events.filter((e) => e.pid === pid && e.ts > navigation.ts);
  const firstPaint = page.find((e) => e.name === "firstPaint");
  const compositor = events.find(
    (e) => e.ph === "M" && e.name === "thread_name" && e.pid === pid && e.args?.name === "Compositor",
  );
  if (!firstPaint || !compositor) return null;
  const ms = (ts: number) => Math.round((ts - navigation.ts) / 1000);
  const stall = (kind: PresentationStall["kind"], from: number, drawn: number): PresentationStall => ({
    kind,
    heldMs: Math.round((drawn - from) / 1000),
    fromMs: ms(from),
    drawnAtMs: ms(drawn),
  });

  // Held: up to the last paint Lighthouse reads (a frame held after the first one delays the largest).
  const lastPaint = page.findLast((e) => e.name === "largestContentfulPaint::Candidate");
  const until = Math.max(firstPaint.ts, lastPaint?.ts ?? 0);
  const onCompositor = page.filter((e) => e.tid === compositor.tid);
  const draws = onCompositor.filter((e) => e.name === "DrawFrame").map((e) => e.ts);
  for (const activation of onCompositor.filter((e) => e.name === "ActivateLayerTree" && e.ts < until)) {
    const drawn = draws.find((ts) => ts > activation.ts) ?? until;
    if (drawn - activation.ts >= STALL_MS * 1000) return stall("held", activation.ts, drawn);
  }

  // Idle: the first paint's frame began STALL_MS or more after the page was ready to paint, and
  // the page's thread did (almost) nothing in the STALL_MS before it.
  const onMain = page.filter((e) => e.tid === navigation.tid);
  const frameStart = onMain.findLast((e) => e.name === "BeginMainThreadFrame" && e.ts <= firstPaint.ts)?.ts;
  const domReady = onMain.find((e) => e.name === "domContentLoadedEventEnd")?.ts;
  if (frameStart === undefined || domReady === undefined) return null;
  const blocking = new Set(
    page
      .filter((e) => e.name === "ResourceSendRequest" && e.args?.data?.renderBlocking === "blocking")
      .map((e) => e.args?.data?.requestId),
  );
  const blockingDone = page
    .filter((e) => e.name === "ResourceFinish" && blocking.has(e.args?.data?.requestId))
    .map((e) => e.ts);
  if (blockingDone.length < blocking.size) return null;
  const ready = Math.max(domReady, ...blockingDone);
  const windowStart = frameStart - STALL_MS * 1000;
  if (ready > windowStart) return null;
  // Busy time in the last STALL_MS before the frame (a long task then would explain the wait).
  const busyUs = onMain
    .filter((e) => e.name === "RunTask" && e.ts + (e.dur ?? 0) > windowStart && e.ts < frameStart)
    .reduce((sum, e) => sum + Math.min(e.ts + (e.dur ?? 0), frameStart) - Math.max(e.ts, windowStart), 0);
  return busyUs < IDLE_BUSY_MS * 1000 ? stall("idle", ready, frameStart) : null;
}
