// `npm run demo` starts its app and worker processes with DEMO_EXIT_WITH_PARENT=1 and holds their
// stdin open: when it goes away (even killed hard), the process stops. By default as on SIGTERM,
// so its own handlers run (a worker hands its jobs back). The app server passes its own stop: with
// the demo gone nobody reads its output, and a job worker's stop that logs there can hang the
// process (seen with kill -9 on the demo); the app exits instead, and leases cover its jobs.
export function stopWithDemoParent(
  onParentGone: () => void = () => {
    process.kill(process.pid, "SIGTERM");
  },
): void {
  if (process.env.DEMO_EXIT_WITH_PARENT !== "1") return;
  let signalled = false;
  const stop = () => {
    if (signalled) return;
    signalled = true;
    onParentGone();
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
}
