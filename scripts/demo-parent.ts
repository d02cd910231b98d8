// `npm run demo` starts its app and worker processes with DEMO_EXIT_WITH_PARENT=1 and holds their
// stdin open: when it goes away (even killed hard), the process stops as on SIGTERM, so its own
// handlers run (a worker hands its jobs back, the app closes its server).
export function stopWithDemoParent(): void {
  if (process.env.DEMO_EXIT_WITH_PARENT !== "1") return;
  let signalled = false;
  const stop = () => {
    if (signalled) return;
    signalled = true;
    process.kill(process.pid, "SIGTERM");
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
}
