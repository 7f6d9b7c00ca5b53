// mnemic ui: tell the page when memory changed in another process (written for mnemic).
// Polls the cheap /version endpoint; no third-party code, no inline script (CSP).
(function () {
  "use strict";
  var body = document.body;
  var seen = body.getAttribute("data-version");
  var banner = document.getElementById("live-banner");
  if (!seen || !banner || !window.fetch) { return; }
  var interval = Number(body.getAttribute("data-poll-ms")) || 2000;
  function check() {
    fetch("/version", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.version && data.version !== seen) {
          banner.hidden = false;
          body.setAttribute("data-changed", "true");
          return;
        }
        window.setTimeout(check, interval);
      })
      .catch(function () { window.setTimeout(check, interval * 5); });
  }
  window.setTimeout(check, interval);
})();
