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
    (root || document).querySelectorAll("[data-server-now]").forEach(function (el) {
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
