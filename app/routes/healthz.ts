import db from "~/db.server";

// GET /healthz — for a load balancer or an orchestrator: 200 when this web process can reach its
// database, 503 otherwise. Unauthenticated, so it says nothing about any shop.

export const loader = async () => {
  try {
    await db.$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json({ status: "database unreachable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
};
