// The emulated Shopify admin page: a top bar, the store's sidebar with the app's navigation (read
// from the app's <ui-nav-menu> through the App Bridge stand-in), and the app in an iframe, loaded
// the way Shopify's admin loads an embedded app (shop, host, embedded=1, a fresh id_token, hmac).
// Everything is inline: no font, script or image comes from anywhere but this machine.
//
// The top bar also holds the demo's one store control, outside the app's iframe because it is
// Shopify's side of the story: "New order" places an order the way a customer's checkout would
// (POST /__emulator/orders on this server), and Shopify then notifies the app by webhook.

export interface AdminPageInput {
  storeName: string;
  storeHandle: string;
  appName: string;
  appHandle: string;
  appOrigin: string;
  iframeSrc: string;
  // Where the admin page itself lives, e.g. /store/demo-shop/apps/ship-orders.
  adminBasePath: string;
  // The app path shown first ("/app", "/app/labels"), to highlight the sidebar.
  appPath: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// Simple outline icons drawn inline (no icon font, no CDN).
const icon = (path: string) =>
  `<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${path}</svg>`;
const ICONS = {
  home: icon('<path d="M3 9.5 10 4l7 5.5V16a1 1 0 0 1-1 1h-3.5v-4.5h-5V17H4a1 1 0 0 1-1-1z"/>'),
  orders: icon('<path d="M4 4h12l-1 9H5z"/><path d="M7 17h.01M13 17h.01"/>'),
  products: icon('<path d="M10 3 3.5 6v8L10 17l6.5-3V6z"/><path d="m3.5 6 6.5 3 6.5-3M10 9v8"/>'),
  customers: icon('<circle cx="10" cy="7" r="3"/><path d="M4 17c.8-3 3.2-4.5 6-4.5s5.2 1.5 6 4.5"/>'),
  analytics: icon('<path d="M4 16V9M10 16V4M16 16v-5"/>'),
  app: icon('<rect x="3.5" y="3.5" width="13" height="13" rx="3"/><path d="M7 10h6M10 7v6"/>'),
};

export function renderAdminPage(input: AdminPageInput): string {
  const initials = input.storeName
    .split(/\s+/)
    .filter((w) => /^[A-Za-z]/.test(w))
    .slice(0, 2)
    .map((w) => w[0])
    .join("");
  const config = JSON.stringify({
    appOrigin: input.appOrigin,
    adminBasePath: input.adminBasePath,
    appPath: input.appPath,
    source: "emulated-app-bridge",
  }).replace(/</g, "\\u003c");
  const inert = (name: string, svg: string) =>
    `<li><span class="nav-item inert" title="Not part of the demo">${svg}<span>${name}</span></span></li>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(input.appName)} · ${escapeHtml(input.storeName)} · Emulated Shopify admin</title>
<link rel="icon" href="data:,">
<style>
  :root { --bg: #f1f1f1; --side: #ebebeb; --text: #303030; --muted: #616161; --top: #1a1a1a; }
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 100%; }
  body { font: 13px/1.4 -apple-system, BlinkMacSystemFont, "San Francisco", "Segoe UI", Roboto, "Helvetica Neue", sans-serif; color: var(--text); background: var(--top); display: grid; grid-template-rows: 56px 1fr; }
  header.top { display: flex; align-items: center; gap: 16px; padding: 0 12px 0 16px; color: #e3e3e3; }
  .brand { display: flex; align-items: center; gap: 8px; font-weight: 650; font-size: 14px; width: 228px; }
  .brand .mark { width: 28px; height: 28px; border-radius: 8px; background: #fff; color: #1a1a1a; display: grid; place-items: center; font-weight: 700; }
  .badge { font-size: 11px; font-weight: 550; padding: 2px 8px; border-radius: 8px; background: #ffd6a4; color: #5e4200; white-space: nowrap; }
  .search { flex: 1; max-width: 560px; margin: 0 auto; height: 34px; border-radius: 10px; background: #303030; border: 1px solid #4a4a4a; color: #8a8a8a; display: flex; align-items: center; padding: 0 12px; }
  .store { display: flex; align-items: center; gap: 8px; font-weight: 550; }
  .store .avatar { width: 28px; height: 28px; border-radius: 8px; background: #36a97f; color: #fff; display: grid; place-items: center; font-size: 12px; font-weight: 700; }
  .frame { display: grid; grid-template-columns: 240px 1fr; background: var(--bg); border-radius: 12px 12px 0 0; overflow: hidden; min-height: 0; }
  nav.side { background: var(--side); padding: 12px 8px; overflow: auto; border-right: 1px solid #e3e3e3; }
  nav.side ul { list-style: none; margin: 0; padding: 0; }
  .nav-item { display: flex; align-items: center; gap: 8px; padding: 6px 8px; border-radius: 8px; color: var(--text); text-decoration: none; font-weight: 550; cursor: pointer; }
  .nav-item svg { color: #4a4a4a; flex: none; }
  .nav-item:hover { background: #fafafa; }
  .nav-item.inert { color: #8a8a8a; cursor: default; } .nav-item.inert:hover { background: none; } .nav-item.inert svg { color: #b5b5b5; }
  .section { margin: 16px 8px 6px; font-size: 12px; font-weight: 650; color: var(--muted); }
  nav.side ul.sub { padding-left: 26px; }
  .sub .nav-item { font-weight: 450; padding: 5px 8px; }
  .nav-item.active { background: #fff; font-weight: 650; }
  main { display: grid; grid-template-rows: auto 1fr auto; min-width: 0; min-height: 0; }
  .app-bar { display: flex; align-items: center; gap: 8px; padding: 10px 20px; font-weight: 650; font-size: 14px; border-bottom: 1px solid #e3e3e3; background: var(--bg); position: relative; }
  .app-bar .app-icon { width: 24px; height: 24px; border-radius: 6px; background: #303030; color: #fff; display: grid; place-items: center; }
  .app-bar .title { color: var(--muted); font-weight: 550; }
  .loading { position: absolute; left: 0; bottom: -1px; height: 2px; width: 0; background: #303030; transition: width 2s ease-out; }
  .loading.on { width: 80%; }
  iframe { width: 100%; height: 100%; border: 0; background: var(--bg); display: block; }
  /* A strip below the app, not over it: a toast never covers what the merchant is reading or
     clicking. Empty, it takes no height; one toast at a time (a new one replaces the last). */
  .toasts { display: flex; justify-content: center; background: var(--bg); }
  .toasts:not(:empty) { padding: 8px 16px 12px; border-top: 1px solid #e3e3e3; }
  .toast { background: #1a1a1a; color: #fff; padding: 10px 16px; border-radius: 10px; font-weight: 550; box-shadow: 0 8px 16px rgba(0,0,0,.2); }
  .toast.error { background: #8e1f0b; }
  .simulate { display: flex; align-items: center; gap: 8px; white-space: nowrap; }
  .simulate label { color: #b5b5b5; font-weight: 550; }
  .simulate select, .simulate button { font: inherit; font-weight: 550; height: 30px; border-radius: 8px; border: 1px solid #4a4a4a; background: #303030; color: #e3e3e3; padding: 0 10px; }
  .simulate button { background: #e3e3e3; color: #1a1a1a; border-color: #e3e3e3; cursor: pointer; }
  .simulate button:hover { background: #fff; }
  .simulate button[aria-busy="true"] { opacity: .6; cursor: progress; }
  .simulate select:focus-visible, .simulate button:focus-visible { outline: 2px solid #8fb3ff; outline-offset: 2px; }
  /* A phone, as Shopify's admin shows one: the store's sidebar folds away and the app takes the width. */
  @media (max-width: 767px) {
    .frame { grid-template-columns: 1fr; border-radius: 0; }
    nav.side, .search, .simulate label, .store span:not(.avatar) { display: none; }
    .brand { width: auto; }
    /* The brand's words go before the page grows past a 390 px phone (the app frame with it). */
    .brand span:not(.mark) { display: none; }
    header.top { gap: 8px; }
    .simulate { margin-left: auto; }
  }
</style>
</head>
<body>
<header class="top">
  <div class="brand"><span class="mark">${ICONS.products}</span><span>Admin</span><span class="badge">Emulated</span></div>
  <div class="search" aria-hidden="true">Search</div>
  <div class="simulate" role="group" aria-label="Simulate a customer">
    <label for="new-order-kind">Test order</label>
    <select id="new-order-kind" name="kind">
      <option value="domestic">Domestic (US)</option>
      <option value="international">International</option>
      <option value="problem">Missing weight</option>
    </select>
    <button type="button" id="new-order">New order</button>
  </div>
  <div class="store"><span class="avatar">${escapeHtml(initials)}</span><span>${escapeHtml(input.storeName)}</span></div>
</header>
<div class="frame">
  <nav class="side" aria-label="Store navigation">
    <ul>
      ${inert("Home", ICONS.home)}
      ${inert("Orders", ICONS.orders)}
      ${inert("Products", ICONS.products)}
      ${inert("Customers", ICONS.customers)}
      ${inert("Analytics", ICONS.analytics)}
    </ul>
    <div class="section">Apps</div>
    <ul>
      <li><a class="nav-item" id="app-home" href="${escapeHtml(input.adminBasePath)}">${ICONS.app}<span>${escapeHtml(input.appName)}</span></a></li>
      <li><ul class="sub" id="app-nav" aria-label="${escapeHtml(input.appName)}"></ul></li>
    </ul>
  </nav>
  <main>
    <div class="app-bar"><span class="app-icon">${ICONS.app}</span><span>${escapeHtml(input.appName)}</span><span class="title" id="app-title"></span><span class="loading" id="loading"></span></div>
    <iframe id="app-iframe" name="app-iframe" title="${escapeHtml(input.appName)}" src="${escapeHtml(input.iframeSrc)}"></iframe>
    <div class="toasts" id="toasts" role="status" aria-live="polite"></div>
  </main>
</div>
<script>
(function () {
  var config = ${config};
  var iframe = document.getElementById("app-iframe");
  var nav = document.getElementById("app-nav");
  var home = document.getElementById("app-home");
  var current = config.appPath;
  var items = [];
  var homeHref = "/app";

  function send(message) {
    message.source = config.source;
    iframe.contentWindow.postMessage(message, config.appOrigin);
  }
  function adminPathFor(appPath) {
    var path = appPath.split("?")[0].split("#")[0];
    var extra = appPath.slice(path.length);
    return config.adminBasePath + (path === "/app" || path === "/app/" ? "" : path) + extra;
  }
  function render() {
    nav.textContent = "";
    var path = current.split("?")[0];
    home.classList.toggle("active", path === homeHref);
    items.forEach(function (item) {
      if (item.rel === "home") return;
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.className = "nav-item";
      a.textContent = item.label;
      a.href = adminPathFor(item.href);
      if (path === item.href || path.indexOf(item.href + "/") === 0) a.classList.add("active");
      a.addEventListener("click", function (event) {
        event.preventDefault();
        send({ type: "navigate", href: item.href });
      });
      li.appendChild(a);
      nav.appendChild(li);
    });
  }
  home.addEventListener("click", function (event) {
    event.preventDefault();
    send({ type: "navigate", href: homeHref });
  });
  function showToast(message) {
    var toast = document.createElement("div");
    toast.className = "toast" + (message.isError ? " error" : "");
    toast.textContent = message.message;
    toast.dataset.id = message.id;
    // One at a time: the newest says what just happened; the one before is no longer news.
    document.getElementById("toasts").replaceChildren(toast);
    setTimeout(function () { toast.remove(); }, Math.max(1000, Number(message.duration) || 5000));
  }
  // "New order": the store's checkout, then Shopify's webhooks to the app (sent by the server).
  var newOrder = document.getElementById("new-order");
  var newOrderKind = document.getElementById("new-order-kind");
  newOrder.addEventListener("click", function () {
    if (newOrder.getAttribute("aria-busy") === "true") return;
    newOrder.setAttribute("aria-busy", "true");
    fetch("/__emulator/orders", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ kind: newOrderKind.value })
    })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error((body && body.error && body.error.message) || "HTTP " + response.status);
          return body;
        });
      })
      .then(function (body) {
        var notified = body.events.some(function (e) { return e.urls.length > 0; });
        showToast({
          id: "new-order-" + body.order.numericId,
          message: "Order " + body.order.name + " placed" +
            (notified ? " \u2014 Shopify is notifying the app" : " (no webhook subscriptions: reload the app to see it)")
        });
      })
      .catch(function (error) {
        showToast({ id: "new-order-error", isError: true, message: "Could not place an order: " + error.message });
      })
      .then(function () { newOrder.removeAttribute("aria-busy"); });
  });

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.origin !== config.appOrigin || !data || data.source !== config.source) return;
    if (data.type === "nav-menu") {
      items = Array.isArray(data.items) ? data.items : [];
      var homeItem = items.filter(function (i) { return i.rel === "home"; })[0];
      if (homeItem) homeHref = homeItem.href;
      render();
    } else if (data.type === "location" && typeof data.path === "string") {
      current = data.path;
      history.replaceState(null, "", adminPathFor(current));
      render();
    } else if (data.type === "toast") {
      showToast(data);
    } else if (data.type === "toast-hide") {
      var shown = document.querySelector('.toast[data-id="' + String(data.id).replace(/"/g, "") + '"]');
      if (shown) shown.remove();
    } else if (data.type === "title") {
      document.getElementById("app-title").textContent = data.title ? "· " + data.title : "";
    } else if (data.type === "loading") {
      document.getElementById("loading").classList.toggle("on", Boolean(data.isLoading));
    }
  });
})();
</script>
</body>
</html>`;
}
