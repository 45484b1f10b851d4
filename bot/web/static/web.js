// The pages' one script: counts the turn clock down, follows a live table (server-sent events), steps a replay
// (buttons and the arrow keys). Everything it shows comes from the server, already worded; it adds no word.
"use strict";
(function () {
  const body = document.body;
  const lang = document.documentElement.lang || "en";
  const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const absolute = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });

  function clocks() {
    const now = Date.now() / 1000;
    for (const el of document.querySelectorAll("time[data-t]")) {
      const at = Number(el.dataset.t);
      if (el.dataset.style === "R") {
        const left = Math.round(at - now);
        el.textContent = Math.abs(left) < 90 ? relative.format(left, "second") : relative.format(Math.round(left / 60), "minute");
      } else {
        el.textContent = absolute.format(new Date(at * 1000));
      }
      el.setAttribute("datetime", new Date(at * 1000).toISOString());
    }
  }
  clocks();
  setInterval(clocks, 1000);

  if (body.dataset.live) {
    const table = document.getElementById("table");
    const status = document.getElementById("status");
    const feed = new EventSource(body.dataset.live);
    feed.addEventListener("table", (event) => {
      const frame = JSON.parse(event.data);
      table.innerHTML = frame.html;
      table.dataset.version = frame.version;
      table.dataset.seq = frame.seq;
      clocks();
      if (frame.status !== "running" && frame.status !== "lobby") {
        feed.close();  // the game is over: nothing more to follow
        status.hidden = true;
      }
    });
    feed.onopen = () => { status.textContent = body.dataset.on; status.classList.remove("lost"); };
    feed.onerror = () => { status.textContent = body.dataset.lost; status.classList.add("lost"); };
  }

  if (body.dataset.step !== undefined) {
    const part = document.getElementById("step");
    const last = Number(body.dataset.last);
    let step = Number(body.dataset.step);
    let asked = 0;
    function buttons() {
      const targets = { first: 0, back: Math.max(step - 1, 0), forward: Math.min(step + 1, last), last: last };
      for (const a of document.querySelectorAll(".steps a")) {
        const to = targets[a.dataset.nav];
        a.href = "?step=" + to + "&lang=" + body.dataset.lang;
        if (to === step) a.setAttribute("aria-disabled", "true"); else a.removeAttribute("aria-disabled");
      }
    }
    async function go(to) {
      to = Math.max(0, Math.min(last, to));
      if (to === step) return;
      const mine = ++asked;
      const answer = await fetch(body.dataset.base + "/step/" + to + "?lang=" + body.dataset.lang);
      if (!answer.ok || mine !== asked) return;
      const shown = await answer.json();
      step = shown.step;
      part.innerHTML = shown.html;
      body.dataset.step = String(step);
      history.replaceState(null, "", "?step=" + step + "&lang=" + body.dataset.lang);
      buttons();
      clocks();
    }
    for (const a of document.querySelectorAll(".steps a")) {
      a.addEventListener("click", (event) => {
        event.preventDefault();
        const nav = a.dataset.nav;
        go(nav === "first" ? 0 : nav === "back" ? step - 1 : nav === "forward" ? step + 1 : last);
      });
    }
    document.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight") go(step + 1);
      else if (event.key === "ArrowLeft") go(step - 1);
      else if (event.key === "Home") go(0);
      else if (event.key === "End") go(last);
    });
  }
})();
