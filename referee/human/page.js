"use strict";
/* The human seat's page: draws this seat's view with the game's drawing script,
   offers every legal action as a button (grouped by kind), and sends the chosen index.
   All it knows comes from /state, which holds only what the referee sent this seat. */
const RefereeHuman = (() => {
  const games = {};
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const words = (s) => String(s).replace(/_/g, " ");
  let S = null, version = -1, sending = false, clockTimer = null, askedAt = 0, shownRequest = null;

  /* The board elements a click can choose come from the game's own drawing script:
     its ``targets`` ([selector, data attribute, action fields it names, optional map
     from the attribute's text to the field's value]). */

  async function api(path, body) {
    const opts = { headers: { "X-Referee-Token": token }, cache: "no-store" };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const r = await fetch(path, opts);
    return { status: r.status, data: await r.json() };
  }

  function notice(text, info) {
    const n = $("notice");
    n.hidden = !text;
    n.textContent = text || "";
    n.className = info ? "info" : "";
  }

  function drawBoard() {
    const game = games[S.game];
    if (!S.view) { $("board").innerHTML = '<p class="pending">No position yet.</p>'; return; }
    const ctx = { static: S.static, seats: S.seats, colors: S.colors, seat: S.seat, ply: S.ply, plies: S.ply, options: S.options, notes: {} };
    try {
      $("board").innerHTML = game ? game.draw(S.view, ctx) : `<pre>${esc(JSON.stringify(S.view, null, 1))}</pre>`;
    } catch (err) {
      $("board").innerHTML = `<pre class="verdict-bad">drawing failed: ${esc(err)}</pre><pre>${esc(JSON.stringify(S.view, null, 1))}</pre>`;
    }
    bindBoard();
  }

  /* Marks the board elements that name some legal action; a click sends the action
     when it names exactly one, or points at the buttons of the ones it names. */
  function bindBoard() {
    const req = S.request;
    if (!req || sending) return;
    for (const [sel, attr, fields, map] of (games[S.game] || {}).targets || []) {
      for (const el of $("board").querySelectorAll(`${sel}[data-${attr}]`)) {
        const raw = el.dataset[attr];
        const value = map ? map(raw, S.static || {}) : raw;
        const hits = req.legal.filter((a) => fields.some((f) => Object.prototype.hasOwnProperty.call(a.fields, f) && String(a.fields[f]) === String(value)));
        if (!hits.length) continue;
        el.classList.add("clickable");
        el.setAttribute("data-choices", hits.map((a) => a.index).join(" "));
        el.addEventListener("click", () => {
          if (hits.length === 1) choose(req.id, hits[0].index);
          else hint(hits.map((a) => a.index));
        });
      }
    }
  }

  function hint(indices) {
    for (const b of document.querySelectorAll("#actions button.act")) b.classList.toggle("hint", indices.includes(Number(b.dataset.index)));
    const first = document.querySelector("#actions button.act.hint");
    if (first) first.scrollIntoView({ block: "nearest" });
    notice(`${indices.length} actions name that: choose one of the marked buttons.`, true);
  }

  function fieldText(fields) {
    return Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  }

  function drawActions() {
    const box = $("actions");
    const req = S.request;
    if (shownRequest === (req ? req.id : null) && box.dataset.sending === String(sending)) return;
    shownRequest = req ? req.id : null;
    box.dataset.sending = String(sending);
    if (!req) {
      box.innerHTML = `<p class="pending">${esc(S.result ? "The game is over." : S.status)}.</p>`;
      box.dataset.request = "";
      return;
    }
    const groups = new Map();
    for (const a of req.legal) {
      if (!groups.has(a.kind)) groups.set(a.kind, []);
      groups.get(a.kind).push(a);
    }
    let s = "";
    for (const [kind, list] of groups) {
      s += `<fieldset data-kind="${esc(kind)}"><legend>${esc(words(kind))} (${list.length})</legend>`;
      for (const a of list) {
        const f = fieldText(a.fields);
        s += `<button class="act" type="button" data-index="${a.index}" data-kind="${esc(kind)}"${sending ? " disabled" : ""} title="${esc(kind + (f ? " " + f : ""))}">${esc(a.label)}${f ? `<span class="fields">${esc(kind)} ${esc(f)}</span>` : ""}</button>`;
      }
      s += "</fieldset>";
    }
    box.innerHTML = s;
    box.dataset.request = String(req.id);
    for (const b of box.querySelectorAll("button.act")) b.addEventListener("click", () => choose(req.id, Number(b.dataset.index)));
  }

  function drawLog() {
    const ol = $("log");
    const name = (seat) => (seat >= 0 ? S.seats[seat] || `seat ${seat}` : "chance");
    ol.innerHTML = S.log.map((e, i) => `<li class="${e.seat < 0 ? "chance" : "move"}${i >= S.since_move ? " recent" : ""}" style="border-left-color:${e.seat >= 0 ? S.colors[e.seat] || "#999" : "transparent"}"><span class="n">${esc(e.ply)}</span>${esc(name(e.seat))}${e.seat === S.seat ? " (you)" : ""}: ${esc(e.text)}</li>`).join("");
    ol.scrollTop = ol.scrollHeight;
  }

  function drawResult() {
    const R = S.result;
    if (!R || !R.result) { $("result").innerHTML = ""; return; }
    const r = R.result;
    let s = '<h2>Result</h2><table class="result"><tr><th>rank</th><th>seat</th><th>player</th><th>score</th><th>verdict</th></tr>';
    S.seats.forEach((who, i) => {
      const bad = R.verdicts[i] !== "ok" ? ' class="verdict-bad"' : "";
      s += `<tr><td class="num">${esc(r.ranks[i])}</td><td class="num">${i}</td><td><span class="swatch" style="background:${S.colors[i]}"></span>${esc(who)}${i === S.seat ? " (you)" : ""}</td><td class="num">${esc(r.scores[i])}</td><td${bad}>${esc(R.verdicts[i])}</td></tr>`;
    });
    $("result").innerHTML = s + "</table>";
  }

  function tick() {
    const req = S && S.request;
    if (!req) { $("clock").textContent = ""; return; }
    const c = req.clock || {};
    const used = req.elapsed_ms + (performance.now() - askedAt);
    const free = (c.move_ms || 0) - used;
    const bank = (c.bank_ms || 0) + Math.min(0, free);
    const text = free > 0 ? `${(free / 1000).toFixed(0)} s for this move, then bank ${(bank / 1000).toFixed(0)} s` : `bank ${(Math.max(0, bank) / 1000).toFixed(0)} s left`;
    $("clock").textContent = text;
    $("clock").classList.toggle("low", free <= 0 && bank < 30000);
  }

  function render() {
    document.body.dataset.game = S.game || "";
    document.body.dataset.status = S.status;
    document.body.dataset.request = S.request ? String(S.request.id) : "";
    document.body.dataset.finished = S.result ? "1" : "0";
    $("status").textContent = S.status;
    $("seatname").textContent = S.seat >= 0 ? `seat ${S.seat}: ${S.seats[S.seat] || ""}` : "";
    if (S.game && !games[S.game] && !document.body.dataset.reloaded && document.querySelectorAll("script").length) {
      // the page was loaded before the game was known: load it again with its drawing
      if (!sessionStorage.getItem("referee-reloaded")) { sessionStorage.setItem("referee-reloaded", "1"); location.reload(); return; }
    }
    drawBoard(); drawActions(); drawLog(); drawResult(); tick();
  }

  async function poll() {
    for (;;) {
      try {
        const { status, data } = await api(`/state?since=${version}`);
        if (status !== 200) { $("status").textContent = `refused (${status})`; return; }
        const fresh = !S || !S.request || !data.request || S.request.id !== data.request.id;
        S = data; version = data.version;
        if (fresh && data.request) askedAt = performance.now();
        render();
        document.body.dataset.ready = "1";
      } catch (err) {
        $("status").textContent = S && S.result ? "game over (the seat has closed)" : "connection lost";
        document.body.dataset.closed = "1";
        return;
      }
    }
  }

  /* Send the choice of legal index `index` for request `id`. */
  async function choose(id, index) {
    if (sending) return;
    sending = true;
    drawActions();
    let sent = false;
    try {
      const { status, data } = await api("/action", { id, index });
      sent = status === 200;
      if (sent) notice(`You: ${data.text}`, true);
      else notice(`Refused: ${data.error}`, false);
    } catch (err) {
      notice(`Could not send the move: ${err}`, false);
    } finally {
      sending = false;
      shownRequest = undefined;
      // the request answered is gone (the next state brings the next one)
      if (S && sent && S.request && S.request.id === id) S.request = null;
      if (S) render();
    }
  }

  function start() {
    setInterval(() => { if (S) tick(); }, 250);
    poll();
  }

  return { register(name, impl) { games[name] = impl; }, start, choose, state: () => S };
})();
window.RefereeHuman = RefereeHuman;
/* the games' drawing scripts register with RefereeViewer */
window.RefereeViewer = { register: (name, impl) => RefereeHuman.register(name, impl) };
