// A local stand-in for Shopify's App Bridge (https://cdn.shopify.com/shopifycloud/app-bridge.js),
// served by the Shopify emulator at /app-bridge.js and loaded by the app in the demo through
// APP_BRIDGE_URL. It runs inside the app's iframe and implements what the app uses:
//
//   shopify.idToken()                      a fresh session token, minted by the emulated admin
//   fetch (patched)                        same-origin requests carry `Authorization: Bearer <token>`;
//                                          a 401 with X-Shopify-Retry-Invalid-Session-Request is retried once
//   shopify.toast.show(message, options)   { duration, isError } → shown by the admin page
//   shopify.modal / <ui-modal>             show, hide, toggle; `content` for App Bridge React's portal
//   shopify.saveBar / <ui-save-bar>        show, hide, toggle, leaveConfirmation
//   <ui-nav-menu>                          its links appear in the admin's sidebar; a click there
//                                          dispatches `shopify:navigate` (AppProvider navigates)
//   <ui-title-bar title>                   the title appears above the app
//   shopify.loading(bool), shopify.print() a progress bar in the admin; window.print()
//   the bounce page                        /auth/session-token?shopify-reload=… reloads with id_token
//
// Anything else on `shopify` throws "not emulated" so a screen using it fails loudly in the demo.
// Messages to and from the admin page carry `source: "emulated-app-bridge"` and are accepted
// only from the emulator's origin (the origin this script was served from).
(function () {
  "use strict";
  if (window.shopify) return;
  var script = document.currentScript;
  var apiKey = (script && script.getAttribute("data-api-key")) || "";
  var adminOrigin = script ? new URL(script.src).origin : location.origin;
  var SOURCE = "emulated-app-bridge";
  var params = new URLSearchParams(location.search);
  // The shop and host arrive on the first document load; keep them for later navigations.
  var shop = params.get("shop") || sessionStorage.getItem("emulated-app-bridge:shop") || "";
  var host = params.get("host") || sessionStorage.getItem("emulated-app-bridge:host") || "";
  if (shop) sessionStorage.setItem("emulated-app-bridge:shop", shop);
  if (host) sessionStorage.setItem("emulated-app-bridge:host", host);

  function post(message) {
    message.source = SOURCE;
    if (window.parent !== window) window.parent.postMessage(message, adminOrigin);
  }

  // --- Session tokens ---------------------------------------------------------------------
  var cached = null; // { token, exp }
  var pending = null;
  function idToken(force) {
    var now = Date.now() / 1000;
    if (!force && cached && cached.exp - 10 > now) return Promise.resolve(cached.token);
    if (pending) return pending;
    var url =
      adminOrigin + "/admin/session-token?shop=" + encodeURIComponent(shop) + "&api_key=" + encodeURIComponent(apiKey);
    pending = originalFetch(url, { credentials: "omit" })
      .then(function (response) {
        if (!response.ok) throw new Error("The emulated admin refused a session token (" + response.status + ")");
        return response.json();
      })
      .then(function (body) {
        cached = { token: body.token, exp: body.exp };
        return body.token;
      })
      .finally(function () {
        pending = null;
      });
    return pending;
  }

  // --- fetch: same-origin requests are authenticated, like App Bridge's -------------------
  var originalFetch = window.fetch.bind(window);
  function isSameOrigin(input) {
    var raw = typeof input === "string" ? input : input instanceof URL ? input.href : input && input.url;
    try {
      return new URL(raw, location.href).origin === location.origin;
    } catch {
      return false;
    }
  }
  function withToken(input, init, token) {
    var request = new Request(input, init);
    if (!request.headers.has("Authorization")) {
      var headers = new Headers(request.headers);
      headers.set("Authorization", "Bearer " + token);
      return new Request(request, { headers: headers });
    }
    return request;
  }
  window.fetch = function (input, init) {
    if (!isSameOrigin(input)) return originalFetch(input, init);
    // A body can be read once: keep a clone for the retry.
    var first = new Request(input, init);
    var spare = first.clone();
    return idToken(false)
      .then(function (token) {
        return originalFetch(withToken(first, undefined, token));
      })
      .then(function (response) {
        if (response.status === 401 && response.headers.get("X-Shopify-Retry-Invalid-Session-Request") === "1") {
          return idToken(true).then(function (token) {
            return originalFetch(withToken(spare, undefined, token));
          });
        }
        return response;
      });
  };

  // --- The bounce page: reload the target with a session token, as App Bridge does ---------
  var reload = params.get("shopify-reload");
  if (reload) {
    idToken(false).then(function (token) {
      var target = new URL(reload, location.href);
      if (target.origin !== location.origin) throw new Error("shopify-reload must stay on the app's origin");
      target.searchParams.set("id_token", token);
      location.replace(target.href);
    });
  }

  // --- Toast and loading: shown by the admin page ------------------------------------------
  var toastCount = 0;
  var toast = {
    show: function (message, options) {
      var id = "toast-" + ++toastCount;
      post({
        type: "toast",
        id: id,
        message: String(message),
        isError: Boolean(options && options.isError),
        duration: (options && options.duration) || 5000,
      });
      return id;
    },
    hide: function (id) {
      post({ type: "toast-hide", id: id });
    },
  };

  // --- Hidden App Bridge elements and their styles -----------------------------------------
  var style = document.createElement("style");
  style.textContent =
    "ui-nav-menu, ui-title-bar, ui-save-bar, ui-modal { display: none !important; }" +
    ".eab-overlay { position: fixed; inset: 0; background: rgba(0,0,0,.45); display: flex; align-items: center; justify-content: center; z-index: 2147483000; font: 13px/1.4 -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif; }" +
    ".eab-dialog { background: #fff; border-radius: 12px; width: min(620px, calc(100vw - 32px)); max-height: calc(100vh - 64px); display: flex; flex-direction: column; box-shadow: 0 20px 40px rgba(0,0,0,.25); }" +
    ".eab-dialog[data-variant=large] { width: min(980px, calc(100vw - 32px)); } .eab-dialog[data-variant=small] { width: min(380px, calc(100vw - 32px)); }" +
    ".eab-head { display: flex; justify-content: space-between; align-items: center; padding: 12px 16px; border-bottom: 1px solid #ebebeb; font-weight: 650; font-size: 14px; background: #f7f7f7; border-radius: 12px 12px 0 0; }" +
    ".eab-body { overflow: auto; } .eab-foot { display: flex; justify-content: flex-end; gap: 8px; padding: 12px 16px; border-top: 1px solid #ebebeb; }" +
    ".eab-btn { border: 1px solid #c9c9c9; background: #fff; border-radius: 8px; padding: 6px 12px; font: inherit; font-weight: 550; cursor: pointer; }" +
    ".eab-btn[data-primary] { background: #303030; color: #fff; border-color: #303030; } .eab-btn[data-critical] { background: #c70a24; color: #fff; border-color: #c70a24; }" +
    ".eab-close { border: 0; background: none; font-size: 18px; cursor: pointer; color: #616161; }" +
    ".eab-savebar { position: fixed; top: 0; left: 0; right: 0; z-index: 2147482000; display: flex; align-items: center; justify-content: space-between; padding: 10px 16px; background: #1a1a1a; color: #e3e3e3; font: 600 13px/1.4 -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif; }" +
    ".eab-savebar .eab-btn { border-color: #4a4a4a; background: #303030; color: #fff; } .eab-savebar .eab-btn[data-primary] { background: #fff; color: #303030; }";
  (document.head || document.documentElement).appendChild(style);

  // Buttons declared inside <ui-title-bar> or <ui-save-bar> are proxied: clicking the copy clicks
  // the original, so React's handlers run.
  function proxyButtons(container, into) {
    var buttons = container ? container.querySelectorAll("button") : [];
    buttons.forEach(function (original) {
      var copy = document.createElement("button");
      copy.type = "button";
      copy.className = "eab-btn";
      copy.textContent = original.textContent;
      copy.disabled = original.disabled || original.hasAttribute("loading");
      var variant = original.getAttribute("variant");
      if (variant === "primary") copy.setAttribute("data-primary", "");
      if (original.getAttribute("tone") === "critical") copy.setAttribute("data-critical", "");
      copy.addEventListener("click", function () {
        original.click();
      });
      into.appendChild(copy);
    });
  }

  function defineElement(name, impl) {
    if (!customElements.get(name)) customElements.define(name, impl);
  }

  // <ui-modal>: App Bridge React portals its content into `modal.content`.
  class UiModal extends HTMLElement {
    constructor() {
      super();
      this.content = document.createElement("div");
      this._overlay = null;
    }
    get open() {
      return Boolean(this._overlay);
    }
    show() {
      if (this._overlay) return Promise.resolve();
      var overlay = document.createElement("div");
      overlay.className = "eab-overlay";
      var dialog = document.createElement("div");
      dialog.className = "eab-dialog";
      dialog.setAttribute("role", "dialog");
      dialog.setAttribute("aria-modal", "true");
      dialog.setAttribute("data-variant", this.getAttribute("variant") || "base");
      var titleBar = this.querySelector("ui-title-bar");
      var head = document.createElement("div");
      head.className = "eab-head";
      var title = document.createElement("span");
      title.textContent = (titleBar && titleBar.getAttribute("title")) || "";
      var close = document.createElement("button");
      close.className = "eab-close";
      close.setAttribute("aria-label", "Close");
      close.textContent = "×";
      close.addEventListener("click", () => {
        this.hide();
      });
      head.append(title, close);
      var body = document.createElement("div");
      body.className = "eab-body";
      body.appendChild(this.content);
      // Content written directly inside <ui-modal> (not through React's portal) is shown too.
      Array.prototype.forEach.call(this.children, function (child) {
        var tag = child.tagName.toLowerCase();
        if (
          tag !== "ui-title-bar" &&
          tag !== "ui-save-bar" &&
          child.children.length + child.textContent.trim().length > 0
        ) {
          body.appendChild(child.cloneNode(true));
        }
      });
      var foot = document.createElement("div");
      foot.className = "eab-foot";
      proxyButtons(titleBar, foot);
      dialog.append(head, body);
      if (foot.children.length) dialog.appendChild(foot);
      overlay.appendChild(dialog);
      document.body.appendChild(overlay);
      this._overlay = overlay;
      this.dispatchEvent(new CustomEvent("show"));
      return Promise.resolve();
    }
    hide() {
      if (!this._overlay) return Promise.resolve();
      this._overlay.remove();
      this._overlay = null;
      this.dispatchEvent(new CustomEvent("hide"));
      return Promise.resolve();
    }
    toggle() {
      return this._overlay ? this.hide() : this.show();
    }
    disconnectedCallback() {
      if (this._overlay) this._overlay.remove();
      this._overlay = null;
    }
  }
  defineElement("ui-modal", UiModal);

  // <ui-save-bar>: a bar over the top of the app while there are unsaved changes.
  class UiSaveBar extends HTMLElement {
    constructor() {
      super();
      this._bar = null;
    }
    get showing() {
      return Boolean(this._bar);
    }
    show() {
      if (this._bar) return Promise.resolve();
      var bar = document.createElement("div");
      bar.className = "eab-savebar";
      bar.setAttribute("role", "region");
      bar.setAttribute("aria-label", "Unsaved changes");
      var label = document.createElement("span");
      label.textContent = "Unsaved changes";
      var actions = document.createElement("div");
      actions.style.display = "flex";
      actions.style.gap = "8px";
      proxyButtons(this, actions);
      bar.append(label, actions);
      document.body.appendChild(bar);
      this._bar = bar;
      this.dispatchEvent(new CustomEvent("show"));
      return Promise.resolve();
    }
    hide() {
      if (!this._bar) return Promise.resolve();
      this._bar.remove();
      this._bar = null;
      this.dispatchEvent(new CustomEvent("hide"));
      return Promise.resolve();
    }
    toggle() {
      return this._bar ? this.hide() : this.show();
    }
    disconnectedCallback() {
      if (this._bar) this._bar.remove();
      this._bar = null;
    }
  }
  defineElement("ui-save-bar", UiSaveBar);
  defineElement("ui-nav-menu", class extends HTMLElement {});
  defineElement("ui-title-bar", class extends HTMLElement {});

  function byId(id, tag) {
    var element = document.getElementById(id);
    if (!element || element.tagName.toLowerCase() !== tag) throw new Error("No <" + tag + "> with id " + id);
    return element;
  }

  // --- The navigation menu and the title, mirrored in the admin page -----------------------
  var lastMenu = "";
  var lastTitle = "";
  function publishChrome() {
    var menu = document.querySelector("ui-nav-menu");
    var items = menu
      ? Array.prototype.map.call(menu.querySelectorAll("a"), function (a) {
          return { label: a.textContent.trim(), href: a.getAttribute("href"), rel: a.getAttribute("rel") };
        })
      : [];
    var serialized = JSON.stringify(items);
    if (serialized !== lastMenu) {
      lastMenu = serialized;
      post({ type: "nav-menu", items: items });
    }
    var titleBar = Array.prototype.find.call(document.querySelectorAll("ui-title-bar"), function (element) {
      return !element.closest("ui-modal");
    });
    var title = (titleBar && titleBar.getAttribute("title")) || "";
    if (title !== lastTitle) {
      lastTitle = title;
      post({ type: "title", title: title });
    }
  }
  function publishLocation() {
    var url = new URL(location.href);
    ["embedded", "shop", "host", "id_token", "hmac", "locale", "session", "timestamp"].forEach(function (key) {
      url.searchParams.delete(key);
    });
    post({ type: "location", path: url.pathname + url.search + url.hash });
  }
  ["pushState", "replaceState"].forEach(function (method) {
    var original = history[method];
    history[method] = function () {
      var result = original.apply(this, arguments);
      publishLocation();
      return result;
    };
  });
  window.addEventListener("popstate", publishLocation);
  new MutationObserver(publishChrome).observe(document.documentElement, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["href", "title", "rel"],
    characterData: true,
  });
  document.addEventListener("DOMContentLoaded", function () {
    publishChrome();
    publishLocation();
  });

  // The admin asks the app to navigate: dispatch `shopify:navigate` on the menu's link, where
  // the app's AppProvider reads event.target's href.
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.origin !== adminOrigin || !data || data.source !== SOURCE) return;
    if (data.type === "navigate" && typeof data.href === "string") {
      var link = Array.prototype.find.call(document.querySelectorAll("ui-nav-menu a"), function (a) {
        return a.getAttribute("href") === data.href;
      });
      var temporary = null;
      if (!link) {
        temporary = document.createElement("a");
        temporary.setAttribute("href", data.href);
        temporary.hidden = true;
        document.body.appendChild(temporary);
        link = temporary;
      }
      link.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true, composed: true }));
      if (temporary) temporary.remove();
    }
  });

  var notEmulated = function (name) {
    return function () {
      throw new Error("shopify." + name + " is not emulated in the demo (emulator/shopify/admin/app-bridge.js)");
    };
  };

  var api = {
    config: { apiKey: apiKey, shop: shop, host: host, locale: "en" },
    origin: adminOrigin,
    environment: { embedded: true, mobile: false, pos: false },
    idToken: function () {
      return idToken(false);
    },
    toast: toast,
    loading: function (isLoading) {
      post({ type: "loading", isLoading: isLoading !== false });
    },
    print: function () {
      window.print();
    },
    modal: {
      show: function (id) {
        return byId(id, "ui-modal").show();
      },
      hide: function (id) {
        return byId(id, "ui-modal").hide();
      },
      toggle: function (id) {
        return byId(id, "ui-modal").toggle();
      },
    },
    saveBar: {
      show: function (id) {
        return byId(id, "ui-save-bar").show();
      },
      hide: function (id) {
        return byId(id, "ui-save-bar").hide();
      },
      toggle: function (id) {
        return byId(id, "ui-save-bar").toggle();
      },
      leaveConfirmation: function () {
        return Promise.resolve();
      },
    },
    resourcePicker: notEmulated("resourcePicker"),
    scanner: notEmulated("scanner"),
    intents: { invoke: notEmulated("intents.invoke") },
  };
  Object.defineProperty(window, "shopify", { value: api, configurable: false, writable: false });
})();
