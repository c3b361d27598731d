// A seat's phone: shows the payload the server sends, sends the seat's choices back.
// The token is the page's own path; the phone stores only whether it may buzz (nudge.js).
"use strict";
(function () {
  const base = location.pathname.replace(/\/+$/, "");
  const wsUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + "/ws";
  let ws = null, state = null, nextId = 1, retry = 500, revoked = false;
  const $ = (id) => document.getElementById(id);

  function text(el, s) { el.textContent = s; return el; }
  function make(tag, cls, s) { const e = document.createElement(tag); if (cls) e.className = cls; if (s !== undefined) e.textContent = s; return e; }

  function link(kind, words) { const l = $("link"); l.className = "link " + kind; text(l, words); }

  function notice(words, ok) {
    const n = $("notice");
    n.hidden = !words; n.className = ok ? "notice ok" : "notice"; text(n, words || "");
    clearTimeout(notice.timer);
    if (ok) notice.timer = setTimeout(() => { n.hidden = true; }, 3000);
  }

  function render(p) {
    state = p;
    text($("who"), (p.name || p.seat) + " · " + (p.faction || p.title));
    document.title = (p.name || p.seat) + " — " + p.title;
    // What to do, in the game's words (the presenter's next step): a draw says to draw from
    // the deck and enter the card here; with nothing to do, whom the table waits for.
    const must = p.over ? "The game is over." :
      p.must.now ? (p.next || "Your move.") :
      (p.must.waiting_for.length ? "Waiting for " + p.must.waiting_for.join(", ") + "." : "Nothing to do now.");
    text($("must"), must);
    $("now").className = "card" + (p.must.now ? " act" : "");
    window.Nudge.seatActs(Boolean(p.must.now && !p.over));
    const acts = $("actions"); acts.replaceChildren();
    // No button while the seat acts: it acts at the table (the dice), as the line above says.
    if (!p.actions.length) acts.appendChild(make("p", "muted", p.must.now && !p.over ? "Nothing to tap: do it at the table." : "Nothing to do now."));
    // The seat's private choices come first (the table screen cannot offer them): headed
    // apart from the choices the table screen offers too, when there are both.
    const both = p.actions.some((a) => a.private) && p.actions.some((a) => !a.private);
    p.actions.forEach((a, i) => {
      if (both && (i === 0 || a.private !== p.actions[i - 1].private))
        acts.appendChild(make("h3", "group", a.private ? "Private choices" : "Other choices"));
      const b = make("button", "act" + (a.secret ? " secret" : "") + (a.private ? " private" : ""), a.label);
      b.type = "button"; b.dataset.kind = a.kind;
      b.addEventListener("click", () => act(a, b));
      acts.appendChild(b);
    });
    // The seat's own cards as the game's components read: the name (and value) on the
    // card, its text on a tap.
    text($("hand-title"), p.hand_title || "Your hand");
    const hand = $("hand"); hand.replaceChildren();
    (p.hand || []).forEach((c) => {
      const li = make("li");
      if (c.text) {
        const d = make("details"); d.appendChild(make("summary", null, c.name));
        d.appendChild(make("span", "text", c.text)); li.appendChild(d);
      } else text(li, c.name);
      hand.appendChild(li);
    });
    if (!(p.hand || []).length) hand.appendChild(make("li", "muted", "No cards."));
    const base = p.view && p.view.base;
    text($("secret"), base && base.city ? "Your secret base: " + (nameOf(base.city)) : "");
    const secrets = $("yours"); secrets.replaceChildren();
    (p.secrets || []).forEach((line) => secrets.appendChild(make("p", null, line)));
    $("yours-card").hidden = !(p.secrets || []).length;
    const log = $("log"); log.replaceChildren();
    (p.log || []).slice(-30).reverse().forEach((l) => log.appendChild(make("li", null, l)));
  }


  function nameOf(id) {
    return (state && state.names && state.names[id]) || id;
  }

  function act(a, button) {
    if (!ws || ws.readyState !== 1 || !state) { notice("Not connected: reconnecting…"); return; }
    document.querySelectorAll("button.act").forEach((b) => { b.disabled = true; });
    ws.send(JSON.stringify({ type: "act", id: nextId++, ply: state.ply, action: a.action }));
    notice("");
  }

  function connect() {
    if (revoked) return;
    link("", "● connecting");
    ws = new WebSocket(wsUrl);
    ws.onopen = () => { retry = 500; link("up", "● live"); };
    ws.onmessage = (ev) => {
      let m; try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === "state") render(m.payload);
      else if (m.type === "ok") notice("Done.", true);
      else if (m.type === "error") { notice(m.message); document.querySelectorAll("button.act").forEach((b) => { b.disabled = false; }); }
    };
    ws.onclose = (ev) => {
      if (ev.code === 4403) { revoked = true; link("down", "● link revoked"); notice("This link was replaced: scan the seat's new code."); return; }
      link("down", "● reconnecting…");
      setTimeout(connect, retry);          // a lost connection comes back and catches up (the server sends the state)
      retry = Math.min(retry * 2, 8000);
    };
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "sync" }));
  });
  window.Nudge.start();
  connect();
})();
