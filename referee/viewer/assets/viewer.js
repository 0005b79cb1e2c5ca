"use strict";
/* Referee replay viewer: the game-agnostic page logic.  Games register a drawing
   function with RefereeViewer.register(name, {draw(frame, ctx)}) returning SVG text. */
const RefereeViewer = (() => {
  const games = {};
  const KEY_EVERY = 32;
  const RELOAD_MS = 1500;
  const streams = {};
  let D = null, pos = 0, persp = null, timer = null, moveItems = [], plyItem = new Map();
  let current = null, resultShown = null;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));

  function clone(v) { return (v === null || typeof v !== "object") ? v : structuredClone(v); }

  /* Apply [path, value] operations (see referee/viewer/delta.py) in place. */
  function applyOps(obj, ops) {
    for (const op of ops) {
      const path = op[0], val = op[1];
      if (path.length === 0) { obj = clone(val); continue; }
      let t = obj;
      for (let i = 0; i < path.length - 1; i++) t = t[path[i]];
      const last = path[path.length - 1];
      if (op.length === 1) delete t[last];
      else if (last === "#len" && Array.isArray(t)) t.length = val; else t[last] = clone(val);
    }
    return obj;
  }

  function prepare(k) {
    const s = streams[k];
    if (s.base !== null) {
      for (let p = 1; p < s.ops.length; p++) if (s.ops[p] === 0) s.ops[p] = s.ops[p - 1];
      return;
    }
    let obj = null;
    s.keys = [];
    for (let p = 0; p < s.ops.length; p++) {
      obj = applyOps(obj, s.ops[p]);
      if (p % KEY_EVERY === 0) s.keys.push(JSON.stringify(obj));
    }
    s.cur = null; s.curPly = -1;
  }

  /* The frame of perspective k at position p (read-only for callers). */
  function frameOf(k, p) {
    const s = streams[k];
    if (s.base !== null) return applyOps(clone(frameOf(s.base, p)), s.ops[p]);
    if (s.curPly === p) return s.cur;
    if (!(s.curPly >= 0 && s.curPly < p && p - s.curPly <= KEY_EVERY)) {
      const kf = Math.floor(p / KEY_EVERY);
      s.cur = JSON.parse(s.keys[kf]);
      s.curPly = kf * KEY_EVERY;
    }
    while (s.curPly < p) { s.curPly += 1; s.cur = applyOps(s.cur, s.ops[s.curPly]); }
    return s.cur;
  }

  function seatOf(k) { return k === "omni" ? null : Number(k); }

  function moveText(i) {
    const over = D.overrides[persp];
    if (over && Object.prototype.hasOwnProperty.call(over, String(i))) return over[String(i)];
    return D.moves[i][3];
  }

  function buildMoves() {
    const ol = $("moves");
    ol.textContent = "";
    moveItems = []; plyItem = new Map();
    const frag = document.createDocumentFragment();
    D.moves.forEach((m, i) => {
      const [ply, kind, seat, , fallback] = m;
      const text = moveText(i);
      const li = document.createElement("li");
      li.className = kind + (fallback ? " fallback" : "");
      if (seat >= 0) li.style.borderLeftColor = D.colors[seat];
      const who = seat >= 0 ? D.seats[seat] : "chance";
      li.innerHTML = `<span class="n">${ply}</span><span class="who">${esc(who)}</span>: ${esc(text === null ? "(hidden)" : text)}${fallback ? " [fallback]" : ""}`;
      li.title = li.textContent;
      const target = kind === "fault" ? ply : ply + 1;
      li.dataset.target = String(target);
      li.addEventListener("click", () => goto(target));
      frag.appendChild(li);
      moveItems.push(li);
      if (kind !== "fault") plyItem.set(ply, li);
    });
    ol.appendChild(frag);
  }

  function progressOf(k) { return D.progress[k] || D.progress[D.perspectives[0]]; }

  /* Whether the chart and the result show the whole game: the "show the whole game"
     box, or the final position of a finished game (no spoilers before the end). */
  function revealed() { return $("spoilers").checked || (D.finished && pos >= D.plies); }

  /* The chart up to the current ply (the whole game when revealed): the value axis
     spans only the plies shown, so it gives nothing away either. */
  function drawChart() {
    const series = progressOf(persp);
    const W = 800, H = 200, L = 44, R = 10, T = 10, B = 22;
    const upto = revealed() ? series.length - 1 : Math.min(pos, series.length - 1);
    const shown = series.slice(0, upto + 1);
    let lo = Infinity, hi = -Infinity;
    for (const row of shown) for (const v of row) { if (v < lo) lo = v; if (v > hi) hi = v; }
    if (!isFinite(lo)) { lo = 0; hi = 1; }
    if (hi === lo) hi = lo + 1;
    const n = Math.max(1, series.length - 1);
    const x = (i) => L + (W - L - R) * i / n, y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
    let s = `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" id="chartsvg">`;
    for (let t = 0; t <= 4; t++) {
      const v = lo + (hi - lo) * t / 4;
      s += `<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e7eb"/>`;
      s += `<text x="${L - 4}" y="${y(v) + 4}" font-size="11" text-anchor="end" fill="#6b7280">${Math.round(v * 10) / 10}</text>`;
    }
    s += `<text x="${W - R}" y="${H - 6}" font-size="11" text-anchor="end" fill="#6b7280">ply ${series.length - 1}</text>`;
    const seats = series.length ? series[0].length : 0;
    for (let seat = 0; seat < seats; seat++) {
      const pts = shown.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
      s += `<polyline class="series" data-seat="${seat}" fill="none" stroke="${D.colors[seat]}" stroke-width="2" points="${pts}"/>`;
    }
    s += `<line id="cursor" x1="${x(pos)}" x2="${x(pos)}" y1="${T}" y2="${H - B}" stroke="#111" stroke-dasharray="3 3"/>`;
    s += "</svg>";
    $("chart").innerHTML = s;
    $("chart").dataset.upto = String(upto);
    $("charttitle").textContent = `${D.progress_label} by seat`;
    chartScale = { L, W, R, n };
  }
  let chartScale = null;

  function chartClick(ev) {
    const svg = $("chartsvg");
    if (!svg || !chartScale) return;
    const r = svg.getBoundingClientRect(), c = chartScale;
    const fx = (ev.clientX - r.left) / r.width * c.W;
    goto(Math.round((fx - c.L) / (c.W - c.L - c.R) * c.n));
  }

  function buildResult() {
    const r = D.result;
    if (!r) {
      $("result").innerHTML = `<p class="pending">The game is not finished: ${D.plies} plies so far.</p>`;
      return;
    }
    if (!revealed()) {
      $("result").innerHTML = `<p class="pending">The result shows at the end of the game (ply ${D.plies}), or with "show the whole game".</p>`;
      return;
    }
    const order = D.seats.map((_, i) => i).sort((a, b) => (r.ranks[a] - r.ranks[b]) || (a - b));
    let s = '<table class="result"><tr><th>rank</th><th>seat</th><th>bot</th><th>score</th><th>verdict</th></tr>';
    for (const i of order) {
      const bad = r.verdicts[i] !== "ok" ? ' class="verdict-bad"' : "";
      s += `<tr><td class="num">${r.ranks[i]}</td><td class="num">${i}</td><td><span class="swatch" style="background:${D.colors[i]}"></span>${esc(D.seats[i])}</td><td class="num">${r.scores[i]}</td><td${bad}>${esc(r.verdicts[i])}</td></tr>`;
    }
    s += "</table>";
    if (r.reason !== "finished") s += `<p>ended: ${esc(r.reason)}</p>`;
    $("result").innerHTML = s;
  }

  /* The tracker's notes at position p: the last change at or before p. */
  function notesAt(p) {
    const list = D.notes || [];
    let lo = 0, hi = list.length - 1, found = {};
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid][0] <= p) { found = list[mid][1]; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  function draw() {
    const game = games[D.game];
    const frame = frameOf(persp, pos);
    current = frame;
    const ctx = { static: D.static, seats: D.seats, colors: D.colors, seat: seatOf(persp), ply: pos, plies: D.plies, options: D.options, notes: notesAt(pos) };
    try {
      $("board").innerHTML = game ? game.draw(frame, ctx) : `<pre>${esc(JSON.stringify(frame, null, 1))}</pre>`;
    } catch (err) {
      console.error(err);
      $("board").innerHTML = `<pre class="verdict-bad">drawing failed: ${esc(err)}</pre>`;
    }
  }

  function goto(p) {
    p = Math.max(0, Math.min(D.plies, Math.round(Number(p)) || 0));
    pos = p;
    $("slider").value = String(p);
    $("plylabel").textContent = `ply ${p} / ${D.plies}`;
    draw();
    for (const li of document.querySelectorAll("#moves li.current")) li.classList.remove("current");
    const li = plyItem.get(p - 1);
    if (li) { li.classList.add("current"); li.scrollIntoView({ block: "nearest" }); }
    drawChart();
    const shown = revealed();
    if (shown !== resultShown) { resultShown = shown; buildResult(); }
    document.body.dataset.ply = String(p);
  }

  function setPerspective(k) {
    persp = k;
    $("perspective").value = k;
    buildMoves(); goto(pos);
  }

  function togglePlay() {
    if (timer) { clearInterval(timer); timer = null; $("play").innerHTML = "&#x25B6;"; return; }
    if (pos >= D.plies && !D.live) goto(0);
    $("play").innerHTML = "&#x275A;&#x275A;";
    // a page that follows a running game keeps playing at the end, waiting for more plies
    timer = setInterval(() => { if (pos < D.plies) goto(pos + 1); else if (!D.live) togglePlay(); }, Number($("speed").value));
  }

  /* Where the reader is (ply, view, playing, at the end, page scroll), kept in the
     URL's hash so a reload, or a link, opens the page there. */
  function saveState() {
    const q = new URLSearchParams({ ply: String(pos), view: persp, y: String(Math.round(window.scrollY)) });
    if (timer) q.set("play", "1");
    if (pos >= D.plies) q.set("end", "1");
    if ($("spoilers").checked) q.set("whole", "1");
    history.replaceState(null, "", "#" + q.toString());
  }

  function restoreState() {
    const q = new URLSearchParams(location.hash.slice(1));
    const view = q.get("view");
    if (view !== null && D.perspectives.includes(view)) persp = view;
    if (q.get("whole") === "1") $("spoilers").checked = true;
    if (q.get("end") === "1") pos = D.plies;
    else if (q.get("ply") !== null) pos = Math.max(0, Math.min(D.plies, Number(q.get("ply")) || 0));
    return { play: q.get("play") === "1", y: Number(q.get("y")) || 0 };
  }

  /* opts.reloadMs: how often a live page reloads (referee watch) */
  function start(opts) {
    D = JSON.parse($("referee-data").textContent);
    for (const [k, s] of Object.entries(D.streams)) streams[k] = { base: s.base, ops: s.ops };
    for (const k of Object.keys(streams)) prepare(k);
    const sel = $("perspective");
    for (const k of D.perspectives) {
      const o = document.createElement("option");
      o.value = k;
      o.textContent = k === "omni" ? "omniscient (everything)" : `seat ${k}: ${D.seats[Number(k)]}`;
      sel.appendChild(o);
    }
    sel.addEventListener("change", () => setPerspective(sel.value));
    $("slider").max = String(D.plies);
    $("slider").addEventListener("input", (e) => goto(e.target.value));
    $("first").addEventListener("click", () => goto(0));
    $("prev").addEventListener("click", () => goto(pos - 1));
    $("next").addEventListener("click", () => goto(pos + 1));
    $("last").addEventListener("click", () => goto(D.plies));
    $("play").addEventListener("click", togglePlay);
    // buttons take no focus, so Space and the arrows always drive the viewer
    for (const b of document.querySelectorAll("#controls button")) b.addEventListener("mousedown", (e) => e.preventDefault());
    $("speed").addEventListener("change", () => { if (timer) { togglePlay(); togglePlay(); } });
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") { goto(pos + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { goto(pos - 1); e.preventDefault(); }
      else if (e.key === "Home") goto(0);
      else if (e.key === "End") goto(D.plies);
      else if (e.key === " ") { togglePlay(); e.preventDefault(); }
    });
    $("chart").addEventListener("click", chartClick);
    $("spoilers").addEventListener("change", () => goto(pos));
    persp = D.perspectives[0];
    const saved = restoreState();
    setPerspective(persp);
    if (saved.y) window.scrollTo(0, saved.y);
    if (!D.finished) {
      document.title = `(unfinished) ${document.title}`;
      $("status").textContent = `unfinished: ${D.plies} plies so far` + (D.live ? " · following the record" : "");
      document.body.dataset.finished = "0";
    }
    if (saved.play) togglePlay();
    window.addEventListener("pagehide", saveState);
    // a page of a running game (referee view --follow) reloads itself until the game ends
    if (D.live) setTimeout(() => { saveState(); location.reload(); }, (opts && opts.reloadMs) || RELOAD_MS);
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = "1";
  }

  return {
    register(name, impl) { games[name] = impl; },
    start, goto,
    position: () => pos,
    frame: () => current,
    perspective: () => persp,
    setPerspective,
    data: () => D,
  };
})();
window.RefereeViewer = RefereeViewer;
