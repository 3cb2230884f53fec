// Sumrak's small script: countdowns drawn from the server's deadline, and
// pausing live polling in hidden tabs. The server alone decides outcomes.
(function () {
  "use strict";

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var deadline = Date.parse(el.getAttribute("data-deadline"));
      var skew = parseFloat(el.getAttribute("data-server-skew") || "0");
      if (isNaN(deadline)) { return; }
      var left = Math.max(0, (deadline - (now + skew)) / 1000);
      var format = el.getAttribute("data-format") || "seconds";
      if (format === "clock") {
        var m = Math.floor(left / 60), s = Math.floor(left % 60);
        el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      } else {
        el.textContent = left.toFixed(left < 10 ? 1 : 0);
      }
      el.classList.toggle("expired", left <= 0);
    });
  }

  // Server time offset: pages carry data-server-now so a tablet with a wrong
  // clock still shows the right remaining time.
  function calibrate(root) {
    root = root || document;
    var found = Array.prototype.slice.call(root.querySelectorAll("[data-server-now]"));
    if (root.hasAttribute && root.hasAttribute("data-server-now")) { found.push(root); }
    found.forEach(function (el) {
      var server = Date.parse(el.getAttribute("data-server-now"));
      if (isNaN(server)) { return; }
      var skew = server - Date.now();
      el.querySelectorAll("[data-deadline]").forEach(function (d) { d.setAttribute("data-server-skew", String(skew)); });
      if (el.hasAttribute("data-deadline")) { el.setAttribute("data-server-skew", String(skew)); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    calibrate(document);
    tick();
    setInterval(tick, 100);
  });
  document.addEventListener("htmx:afterSwap", function (evt) { calibrate(evt.target); tick(); });

  // A live poll asks "changed since the fragment I show?" itself: the server
  // never lets a browser keep a live fragment (a hand must not stay on a
  // shared device, D4), so the browser's cache would never ask for us.
  document.addEventListener("htmx:configRequest", function (evt) {
    var elt = evt.detail.elt;
    var etag = elt && elt.hasAttribute && elt.hasAttribute("data-live") && elt.getAttribute("data-etag");
    if (etag && evt.detail.verb === "get") { evt.detail.headers["If-None-Match"] = etag; }
  });

  // Live fragments: a refusal (400), a conflict (409: another referee acted
  // first) or a rule refusal (422) comes with the fresh fragment and its
  // message, so it is swapped in like a success. An unchanged poll (304) is
  // not swapped, so nothing typed or focused is lost.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    if (!xhr) { return; }
    if (xhr.status === 400 || xhr.status === 409 || xhr.status === 422) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
      return;
    }
    if (xhr.status === 304) { evt.detail.shouldSwap = false; }
  });

  // Polling pauses in hidden tabs: live elements (data-live) skip their request
  // while the tab is hidden (no eval-based trigger filters: the CSP forbids eval),
  // and refresh at once when the tab comes back.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-live") && document.visibilityState === "hidden") {
      evt.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && window.htmx) {
      document.querySelectorAll("[data-live]").forEach(function (el) { window.htmx.trigger(el, "sumrak:refresh"); });
    }
  });
})();
