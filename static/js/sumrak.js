// Sumrak's small script: the theme, countdowns drawn from the server's deadline,
// the time-out signal, taps kept through a lost connection, and pausing live
// polling in hidden tabs. The server alone decides outcomes.
(function () {
  "use strict";

  // Night games: Bootstrap's dark theme whenever the device asks for it. This
  // file is loaded in <head> (not deferred) so the page is never drawn light first.
  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function applyTheme() {
    document.documentElement.setAttribute("data-bs-theme", darkQuery && darkQuery.matches ? "dark" : "light");
  }
  applyTheme();
  if (darkQuery && darkQuery.addEventListener) { darkQuery.addEventListener("change", applyTheme); }

  // Countdowns, the last five seconds made urgent, and answer buttons that
  // close at 0 by the page's own clock (the server still decides, D8).
  var URGENT_S = 5;
  function secondsLeft(el, attr) {
    var deadline = Date.parse(el.getAttribute(attr));
    if (isNaN(deadline)) { return null; }
    var skew = parseFloat(el.getAttribute("data-server-skew") || "0");
    return Math.max(0, (deadline - (Date.now() + skew)) / 1000);
  }

  // Seconds in the page's language: "9,5" in Russian, "9.5" in English.
  var secondsFormat = {};
  function localSeconds(value, digits) {
    var lang = document.documentElement.lang || undefined;
    var key = lang + digits;
    if (!secondsFormat[key]) {
      try {
        secondsFormat[key] = new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      } catch (e) { return value.toFixed(digits); }
    }
    return secondsFormat[key].format(value);
  }

  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = secondsLeft(el, "data-deadline");
      if (left === null) { return; }
      var format = el.getAttribute("data-format") || "seconds";
      if (format === "clock") {
        var m = Math.floor(left / 60), s = Math.floor(left % 60);
        el.textContent = m + ":" + (s < 10 ? "0" : "") + s;
      } else {
        el.textContent = localSeconds(left, left < 10 ? 1 : 0);
        el.classList.toggle("urgent", left > 0 && left <= URGENT_S);
      }
      el.classList.toggle("expired", left <= 0);
    });
    document.querySelectorAll("[data-closes]").forEach(function (el) {
      var key = el.getAttribute("data-signal-key") || el.getAttribute("data-closes");
      seenWindows[key] = el.getAttribute("data-closed-text");
      var left = secondsLeft(el, "data-closes");
      if (left === null || left > 0 || el.hasAttribute("data-closed")) { return; }
      el.setAttribute("data-closed", "");
      el.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      // An answer already on its way may still count (D8 lag grace): the server's answer tells.
      if (answersSent[el.getAttribute("data-closes")]) { return; }
      signal(key, el.getAttribute("data-closed-text"));
    });
  }

  // A live update may bring the timed-out step before this page's clock reached 0
  // (a slow network makes the page's clock lag): a window seen open here and now
  // recorded as timed out is signalled all the same, once.
  var seenWindows = {};
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("[data-timed-out-key]").forEach(function (marker) {
      var key = marker.getAttribute("data-timed-out-key");
      if (Object.prototype.hasOwnProperty.call(seenWindows, key)) { signal(key, seenWindows[key]); }
    });
  });

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
      el.querySelectorAll("[data-deadline], [data-closes]").forEach(function (d) {
        d.setAttribute("data-server-skew", String(skew));
      });
      if (el.hasAttribute("data-deadline")) { el.setAttribute("data-server-skew", String(skew)); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    calibrate(document);
    tick();
    setInterval(tick, 100);
    setInterval(showStaleness, 1000);
    initSignalSwitch();
    initChoiceFilters();
  });
  // applyMarks first (below): after a step's out-of-band answer the root gets its new server clock.
  document.addEventListener("htmx:afterSwap", function (evt) { applyMarks(); calibrate(evt.target); tick(); });

  // After a tap (a POST, not a poll) the tablet shows what changed: the newest step ([data-newest]:
  // a battle's action resolving now, a mass battle's action) is scrolled into view and flashed.
  document.addEventListener("htmx:afterSettle", function (evt) {
    var config = evt.detail && evt.detail.requestConfig;
    if (!config || String(config.verb).toLowerCase() !== "post") { return; }
    var newest = document.querySelector("[data-newest]");
    if (!newest) { return; }
    var box = newest.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      newest.scrollIntoView({ block: box.height > window.innerHeight ? "start" : "nearest" });
    }
    newest.classList.add("just-changed");
    setTimeout(function () { newest.classList.remove("just-changed"); }, 1600);
  });

  // --- The time-out signal (issue 10): a banner that stays until dismissed or
  // the next action, a short sound and a vibration if this device allows them.
  var SIGNALS_KEY = "sumrak-signals";
  var signalled = {};
  function signalsOn() {
    try { return window.localStorage.getItem(SIGNALS_KEY) !== "off"; } catch (e) { return true; }
  }
  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) { return; }
    try {
      var ctx = new Ctx(), osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.2;
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.35);
    } catch (e) { /* no sound on this device */ }
  }
  function signal(key, text) {
    if (!text || signalled[key]) { return; }
    signalled[key] = true;
    var banner = document.getElementById("signal-banner");
    if (banner) {
      banner.querySelector(".signal-text").textContent = text;
      banner.hidden = false;
    }
    if (signalsOn()) {
      beep();
      if (navigator.vibrate) { navigator.vibrate([200, 100, 200]); }
    }
  }
  function hideSignal() {
    var banner = document.getElementById("signal-banner");
    if (banner) { banner.hidden = true; }
  }
  document.addEventListener("click", function (evt) {
    var t = evt.target;
    if (t.closest && (t.closest(".signal-dismiss") || t.closest("form[hx-post] button[type=submit]"))) { hideSignal(); }
  });
  function initSignalSwitch() {
    document.querySelectorAll(".signal-switch").forEach(function (btn) {
      function show() {
        var on = signalsOn();
        btn.setAttribute("aria-pressed", on ? "true" : "false");
        btn.textContent = btn.getAttribute(on ? "data-on" : "data-off");
      }
      show();
      btn.addEventListener("click", function () {
        try { window.localStorage.setItem(SIGNALS_KEY, signalsOn() ? "off" : "on"); } catch (e) { /* private mode */ }
        show();
      });
    });
  }

  // --- Folded hands and tables stay as the referee left them across live swaps.
  var openDetails = {};
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || !target.querySelectorAll) { return; }
    target.querySelectorAll("details[id]").forEach(function (d) { openDetails[d.id] = d.open; });
  });
  document.addEventListener("htmx:afterSettle", function (evt) {
    var root = evt.detail.elt && evt.detail.elt.isConnected ? evt.detail.elt : document;
    root = root.querySelectorAll ? root : document;
    document.querySelectorAll("details[id]").forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(openDetails, d.id)) { d.open = openDetails[d.id]; }
    });
  });

  // --- Taps that survive (issues 10, 23, 26). Every tap of a tablet page (a form marked
  // data-keep-tap: the fight, battle and mass-battle commands, the check-in desk) is written to
  // localStorage when it is sent, with its nonce, and crossed out when the server answers. A tap
  // the server did not answer - no network, or 502/503/504 (the database restarting, the disk
  // full) - stays "pending" and is sent again, unchanged, when the connection returns, every
  // 3 s, and after a reload or a killed tab: the server applies a nonce once, so a tap whose
  // answer was lost is not applied twice. If the fight moved on meanwhile (409), it is dropped
  // with a message. Only the form's own fields are stored (action, nonce, version, the choice it
  // carries, where it posts), never the CSRF token, a hand or a secret link (docs/security.md);
  // a tap is sent only under the account that made it, and a logout forgets every kept tap.
  // A form not marked (a player's focus on their phone) is kept in memory only, as before.
  var TAPS_KEY = "sumrak-pending-taps";
  var TAP_MAX_AGE_MS = 12 * 3600 * 1000;
  var TAPS_MAX = 20;
  var SHOW_PENDING_AFTER_MS = 1500;
  var memoryTaps = [];
  var inFlight = {};  // keys this page has on the wire now (a resend would only race them)
  var netCause = "offline", dropped = false, flushing = false;

  function unavailableStatus(status) { return status === 0 || status === 502 || status === 503 || status === 504; }
  function owner() { return (document.body && document.body.getAttribute("data-tap-owner")) || ""; }
  function here() { return window.location.pathname + window.location.search; }
  function storedTaps() {
    try {
      var list = JSON.parse(window.localStorage.getItem(TAPS_KEY) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) { return []; }
  }
  function writeStored(list) {
    try {
      if (list.length) { window.localStorage.setItem(TAPS_KEY, JSON.stringify(list)); }
      else { window.localStorage.removeItem(TAPS_KEY); }
      return true;
    } catch (e) { return false; }
  }
  function allTaps() {
    var now = Date.now();
    return storedTaps().concat(memoryTaps).filter(function (t) { return t && now - t.at < TAP_MAX_AGE_MS; })
      .sort(function (a, b) { return a.at - b.at; });
  }
  function keyOf(path, body) {
    var nonce = new URLSearchParams(body).get("nonce");
    return nonce ? "nonce:" + nonce : "form:" + path + "?" + body;
  }
  function dropTap(key) {
    memoryTaps = memoryTaps.filter(function (t) { return t.key !== key; });
    var stored = storedTaps(), kept = stored.filter(function (t) { return t.key !== key; });
    if (kept.length !== stored.length) { writeStored(kept); }
  }
  function putTap(tap) {
    dropTap(tap.key);
    if (tap.persist) {
      var list = storedTaps().filter(function (t) { return Date.now() - t.at < TAP_MAX_AGE_MS; });
      list.push(tap);
      if (writeStored(list.slice(-TAPS_MAX))) { return; }
    }
    memoryTaps.push(tap);
  }
  function markFailed(key) {
    var stored = storedTaps(), changed = false;
    stored.forEach(function (t) { if (t.key === key && !t.failed) { t.failed = true; changed = true; } });
    if (changed) { writeStored(stored); }
    memoryTaps.forEach(function (t) { if (t.key === key) { t.failed = true; } });
  }
  // What a tap sends, as the form's fields; the CSRF token travels in the header instead.
  function tapOf(cfg, elt) {
    var form = elt && elt.closest ? elt.closest("form") : null;
    if (cfg.verb !== "post" || !form) { return null; }
    var marked = form.hasAttribute("data-keep-tap");
    if (!marked && !form.querySelector("input[name=nonce]")) { return null; }
    var body = new URLSearchParams();
    var params = cfg.formData || cfg.parameters;
    if (params && params.forEach) {
      params.forEach(function (v, k) { if (k !== "csrfmiddlewaretoken" && typeof v === "string") { body.append(k, v); } });
    }
    var path = cfg.path, text = body.toString();
    var target = cfg.target && cfg.target.id ? "#" + cfg.target.id : "#fight";
    return {
      key: keyOf(path, text), path: path, body: text, target: target, page: here(), at: Date.now(),
      owner: owner(), persist: marked && path.indexOf("/c/") === -1, failed: false
    };
  }

  function netBanner(kind) {
    var banner = document.getElementById("net-banner");
    if (!banner) { return; }
    banner.querySelectorAll("[data-net]").forEach(function (p) { p.hidden = p.getAttribute("data-net") !== kind; });
    banner.querySelectorAll("[data-net-cause]").forEach(function (p) {
      p.hidden = p.getAttribute("data-net-cause") !== netCause;
    });
    var count = banner.querySelector(".net-count");
    if (count) { count.textContent = String(mine().length); }
    banner.setAttribute("data-state", kind);
    banner.hidden = !kind;
  }
  function mine() {
    var me = owner();
    return allTaps().filter(function (t) { return t.owner === me; });
  }
  // "Pending" while a tap of this account waits for the server's answer (shown once it failed or
  // has waited a moment, so an answered tap never flashes it); gone as soon as none waits.
  function showTaps() {
    var now = Date.now();
    var waiting = mine().filter(function (t) { return t.failed || now - t.at > SHOW_PENDING_AFTER_MS; });
    if (waiting.length) { netBanner("kept"); } else { netBanner(dropped ? "dropped" : ""); }
  }
  function causeOfStatus(status, said) {
    if (status === 0) { return "offline"; }
    return said === "database" || said === "disk" ? said : "error";
  }

  // The tap rides on htmx's request config: its form may be swapped out before the answer's event.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var cfg = evt.detail.requestConfig;
    var tap = cfg && tapOf(cfg, evt.detail.elt);
    if (!tap) { return; }
    cfg.sumrakTap = tap;
    dropped = false;
    inFlight[tap.key] = true;
    putTap(tap);
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var cfg = evt.detail.requestConfig;
    var tap = cfg && cfg.sumrakTap;
    if (!tap || cfg.sumrakAnswered) { return; }
    cfg.sumrakAnswered = true;
    delete inFlight[tap.key];
    var xhr = evt.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (unavailableStatus(status)) {
      netCause = causeOfStatus(status, xhr && xhr.getResponseHeader && xhr.getResponseHeader("X-Sumrak-Unavailable"));
      markFailed(tap.key);
      netBanner("kept");
      return;
    }
    dropTap(tap.key);  // the server answered: applied, refused or moved on, it is not sent again
    showTaps();
    flush();
  });

  function csrfHeaders() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
  }
  function flush() {
    if (flushing || navigator.onLine === false) { return; }
    var next = mine().filter(function (t) { return !inFlight[t.key]; })[0];
    if (!next) { showTaps(); return; }
    flushing = true;
    var headers = csrfHeaders();
    headers["HX-Request"] = "true";
    headers["HX-Target"] = next.target.replace(/^#/, "");
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    fetch(next.path, {method: "POST", body: next.body, headers: headers, credentials: "same-origin"}).then(function (r) {
      if (unavailableStatus(r.status)) {
        netCause = causeOfStatus(r.status, r.headers.get("X-Sumrak-Unavailable"));
        markFailed(next.key);
        flushing = false;
        showTaps();
        return;
      }
      return r.text().then(function (html) {
        dropTap(next.key);
        // 409: the fight moved on; anything else but a success or a refusal with its fragment
        // (400, 422) will not get better by sending it again either.
        dropped = !(r.ok || r.status === 400 || r.status === 422);
        var target = next.page === here() ? document.querySelector(next.target) : null;
        var base = r.headers.get("X-Sumrak-Base-Version");
        if (target && base !== null && misfit(target, base)) {
          window.htmx.trigger(target, "sumrak:refresh");  // cut for another version: the whole fragment instead
        } else if (target && html && window.htmx) {
          // An answer of regions swaps nothing in place (HX-Reswap: none), only out of band.
          window.htmx.swap(target, html, {swapStyle: r.headers.get("HX-Reswap") || "outerHTML"});
          applyMarks();
        }
        flushing = false;
        showTaps();
        flush();  // the next kept tap, in the order they were made
      });
    }).catch(function () {
      netCause = "offline";
      flushing = false;
      showTaps();
    });
  }
  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", function () { showTaps(); flush(); });
  setInterval(flush, 3000);
  setInterval(showTaps, 500);
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest(".net-dismiss")) { dropped = false; netBanner(""); }
  });
  // A logout forgets every kept tap: the next person on this tablet must not send them.
  document.addEventListener("submit", function (evt) {
    var action = evt.target && evt.target.getAttribute && evt.target.getAttribute("action") || "";
    if (/\/accounts\/logout\/$/.test(action)) { memoryTaps = []; writeStored([]); }
  }, true);

  // --- Polls that fail keep the last state on screen under a "reconnecting" badge that says why
  // and how old the page is; meanwhile the live parts ask every second, so the page is itself
  // again within a second or two of the server's return.
  var lastOk = Date.now(), pollFailing = false, pollCause = "offline";
  function causeOf(xhr) {
    if (!xhr || xhr.status === 0) { return "offline"; }
    var said = xhr.getResponseHeader && xhr.getResponseHeader("X-Sumrak-Unavailable");
    return said === "database" || said === "disk" ? said : "error";
  }
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-live")) { return; }
    var xhr = evt.detail.xhr;
    pollFailing = !xhr || xhr.status === 0 || xhr.status >= 500;
    if (pollFailing) { pollCause = causeOf(xhr); } else { lastOk = Date.now(); flush(); }
    showStaleness();
  });
  function showStaleness() {
    var box = document.getElementById("poll-status");
    if (!box) { return; }
    box.hidden = !pollFailing;
    if (pollFailing) {
      box.setAttribute("data-cause", pollCause);
      box.querySelectorAll("[data-poll]").forEach(function (s) { s.hidden = s.getAttribute("data-poll") !== pollCause; });
      var n = Math.round((Date.now() - lastOk) / 1000);
      box.querySelector(".poll-age").textContent = String(n);
    }
  }
  setInterval(function () {
    if (!pollFailing || !window.htmx || document.visibilityState === "hidden") { return; }
    document.querySelectorAll("[data-live]").forEach(function (el) { window.htmx.trigger(el, "sumrak:refresh"); });
  }, 1000);

  // --- The 503 page (templates/unavailable.html) asks for its address every second and shows the
  // page as soon as the server answers otherwise (a form's answer comes back as its page, by GET).
  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("unavailable")) { return; }
    var probing = false;
    setInterval(function () {
      if (probing) { return; }
      probing = true;
      fetch(window.location.href, {method: "GET", credentials: "same-origin", cache: "no-store"}).then(function (r) {
        probing = false;
        if (!unavailableStatus(r.status)) { window.location.replace(window.location.href); }
      }).catch(function () { probing = false; });
    }, 1000);
  });

  // --- Forms with many fields (the counter-rule matrix) warn before the page is
  // left with unsaved changes; saving them clears the warning.
  var dirtyForms = 0;
  document.addEventListener("change", function (evt) {
    var form = evt.target.closest && evt.target.closest("form[data-warn-unsaved]");
    if (form && !form.hasAttribute("data-dirty")) { form.setAttribute("data-dirty", ""); dirtyForms += 1; }
  });
  document.addEventListener("submit", function (evt) {
    if (evt.target.hasAttribute && evt.target.hasAttribute("data-dirty")) {
      evt.target.removeAttribute("data-dirty");
      dirtyForms -= 1;
    }
  });
  window.addEventListener("beforeunload", function (evt) {
    if (dirtyForms > 0) { evt.preventDefault(); evt.returnValue = ""; }
  });

  // --- "Select all on this page" (the characters list's bulk actions): the box
  // [data-select-all="form-id"] ticks every name="id" box of that form; the
  // checkboxes sit in the table rows, tied to the form by their form attribute.
  document.addEventListener("change", function (evt) {
    var box = evt.target;
    var formId = box.getAttribute && box.getAttribute("data-select-all");
    if (!formId) { return; }
    document.querySelectorAll('input[type="checkbox"][name="id"][form="' + formId + '"]').forEach(function (el) {
      el.checked = box.checked;
    });
  });

  // --- Long select lists (the start forms, "add a combatant") filtered by typing, in any letter case.
  // Delegated, so a filter inside a live fragment works after every swap too.
  function filterChoices(input) {
    var select = document.getElementById(input.getAttribute("data-filter-for"));
    if (!select) { return; }
    var q = input.value.toLocaleLowerCase().replace(/ё/g, "е").trim();
    Array.prototype.forEach.call(select.options, function (opt) {
      if (!opt.value) { return; }
      var name = opt.textContent.toLocaleLowerCase().replace(/ё/g, "е");
      opt.hidden = q !== "" && name.indexOf(q) === -1;
    });
    var first = Array.prototype.find.call(select.options, function (o) { return o.value && !o.hidden; });
    if (select.multiple) {
      // The battle's picker: what the filter hides is never added unseen; Enter adds the first match.
      Array.prototype.forEach.call(select.options, function (o) { if (o.hidden) { o.selected = false; } });
      if (first && q && !select.selectedOptions.length) { first.selected = true; }
    } else if (first && q) { select.value = first.value; }
  }
  function initChoiceFilters() {
    document.addEventListener("input", function (evt) {
      var input = evt.target;
      if (input && input.hasAttribute && input.hasAttribute("data-filter-for")) { filterChoices(input); }
    });
  }

  // --- D8 lag grace (issue 23): an answer carries how long after this tablet received its window
  // the tap was made, on the tablet's own monotonic clock (performance.now(), never the wall
  // clock). A window is known by its deadline; it is "received" when it first shows on this
  // page. The server still keeps the deadline: it accepts a late arrival only within the
  // event's grace, and only if this time is inside the window (duels/services/grace.py).
  var windowsSeen = {}, answersSent = {};
  function windowKey(el) { return el.getAttribute("data-closes") || el.getAttribute("data-deadline"); }
  function noteWindows() {
    var t = performance.now();
    document.querySelectorAll("[data-closes], .countdown-answer[data-deadline]").forEach(function (el) {
      var key = windowKey(el);
      if (key && !Object.prototype.hasOwnProperty.call(windowsSeen, key)) { windowsSeen[key] = t; }
    });
  }
  // The window a form answers: the nearest one around it (a duel's answer fieldset, a battle's
  // answer window with its countdown), never one of another part of the page when its own is near.
  function windowOf(form) {
    for (var el = form; el && el !== document.body; el = el.parentElement) {
      var found = el.matches("[data-closes]") ? el : el.querySelector("[data-closes], .countdown-answer[data-deadline]");
      if (found) { return windowKey(found); }
    }
    return null;
  }
  document.addEventListener("DOMContentLoaded", noteWindows);
  document.addEventListener("htmx:afterSettle", noteWindows);
  document.addEventListener("htmx:configRequest", function (evt) {
    var form = evt.detail.elt && evt.detail.elt.closest ? evt.detail.elt.closest("form") : null;
    if (evt.detail.verb !== "post" || !form || !form.querySelector("input[name=nonce]")) { return; }
    var key = windowOf(form);
    if (!key || !Object.prototype.hasOwnProperty.call(windowsSeen, key)) { return; }
    var lag = String(Math.max(0, Math.round(performance.now() - windowsSeen[key])));
    answersSent[key] = true;
    if (evt.detail.formData && evt.detail.formData.set) { evt.detail.formData.set("lag_ms", lag); }
    else { evt.detail.parameters.lag_ms = lag; }
  });

  // --- A step answered with what it changed (issue 24, duels/web/oob.py): htmx swaps the regions
  // out of band, then the live part's mark ([data-live-mark]) is copied onto its live root - the
  // ETag the next poll sends, the version, the server clock, the kind's data attributes - and into
  // every form's version field, so the page is what a reload shows. A full fragment carries the
  // same mark as its root, so nothing changes then. An answer cut for another version than the page
  // shows (X-Sumrak-Base-Version) is not swapped: the page asks for its whole fragment instead.
  function applyMarks() {
    // A region's own mark ([data-mark-for]: a duel card's phase) onto the element it names.
    document.querySelectorAll("[data-mark-for]").forEach(function (mark) {
      var region = document.getElementById(mark.getAttribute("data-mark-for"));
      if (!region) { return; }
      Array.prototype.forEach.call(mark.attributes, function (a) {
        if (a.name.indexOf("data-") === 0 && a.name !== "data-mark-for" && region.getAttribute(a.name) !== a.value) {
          region.setAttribute(a.name, a.value);
        }
      });
    });
    document.querySelectorAll("[data-live-mark]").forEach(function (mark) {
      var root = mark.closest("[data-live]");
      if (!root || root.getAttribute("data-server-now") === mark.getAttribute("data-server-now") &&
          root.getAttribute("data-etag") === mark.getAttribute("data-etag")) { return; }
      Array.prototype.forEach.call(mark.attributes, function (a) {
        if (a.name.indexOf("data-") === 0 && a.name !== "data-live-mark") { root.setAttribute(a.name, a.value); }
      });
      var version = mark.getAttribute("data-version");
      root.querySelectorAll("input[name=version]").forEach(function (input) { input.setAttribute("value", version); input.value = version; });
      calibrate(root);
      tick();
    });
  }
  function misfit(root, baseVersion) {
    return baseVersion !== null && (!root || root.getAttribute("data-version") !== baseVersion);
  }
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    var base = xhr && xhr.getResponseHeader && xhr.getResponseHeader("X-Sumrak-Base-Version");
    if (base === null || base === undefined || !misfit(evt.detail.target, base)) { return; }
    evt.detail.shouldSwap = false;
    if (evt.detail.target && window.htmx) { window.htmx.trigger(evt.detail.target, "sumrak:refresh"); }
  });
  document.addEventListener("htmx:afterSettle", applyMarks);
  document.addEventListener("htmx:afterRequest", function () { setTimeout(applyMarks, 0); });

  // The log's new lines (duels/web/oob.py log_part): a step's answer carries only the lines it added,
  // an <ol data-log-keep="N" hx-swap-oob="afterbegin:#<region> .log-lines"> whose children htmx puts
  // at the head of the page's list. Then the list reads as a reload shows it: the "Nothing yet." line
  // gone, no line twice, the N newest lines (each with the blank text before it, as rendered).
  function dropLine(li) {
    var prev = li.previousSibling;
    if (prev && prev.nodeType === 3 && !prev.textContent.trim()) { prev.parentNode.removeChild(prev); }
    li.parentNode.removeChild(li);
  }
  function trimLog(list, keep) {
    if (!list || !list.isConnected || isNaN(keep)) { return; }
    var lines = list.querySelectorAll(":scope > li.log-line");
    if (!lines.length) { return; }
    list.querySelectorAll(":scope > li:not(.log-line)").forEach(dropLine);
    var seen = {}, kept = [];
    lines.forEach(function (li) {
      var seq = li.getAttribute("data-seq");
      if (seen[seq]) { dropLine(li); } else { seen[seq] = true; kept.push(li); }
    });
    kept.slice(keep).forEach(dropLine);
  }
  function logKeep(detail) {
    var carrier = detail && detail.fragment;
    var keep = carrier && carrier.getAttribute ? carrier.getAttribute("data-log-keep") : null;
    return keep === null ? NaN : parseInt(keep, 10);
  }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var keep = logKeep(evt.detail), list = evt.detail.target;
    if (isNaN(keep)) { return; }
    // The swap follows in the same task; oobAfterSwap may not reach the document (it is fired on the
    // answer's settled elements), so the trim is also queued right after it.
    (window.queueMicrotask || function (f) { setTimeout(f, 0); })(function () { trimLog(list, keep); });
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var keep = logKeep(evt.detail);
    if (!isNaN(keep)) { trimLog(evt.detail.target, keep); }
  });

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
