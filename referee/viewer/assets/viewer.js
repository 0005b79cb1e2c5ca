"use strict";
/* Referee replay viewer: the game-agnostic page logic.  Games register a drawing
   function with RefereeViewer.register(name, {draw(frame, ctx)}) returning SVG text. */
const RefereeViewer = (() => {
  const games = {};
  const KEY_EVERY = 32;
  const streams = {};
  let D = null, pos = 0, persp = null, timer = null, moveItems = [], plyItem = new Map();
  let current = null;
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
      li.innerHTML = `<span class="n">${ply}</span>${esc(who)}: ${esc(text === null ? "(hidden)" : text)}${fallback ? " [fallback]" : ""}`;
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

  function buildChart() {
    const series = progressOf(persp);
    const W = 800, H = 200, L = 44, R = 10, T = 10, B = 22;
    let lo = Infinity, hi = -Infinity;
    for (const row of series) for (const v of row) { if (v < lo) lo = v; if (v > hi) hi = v; }
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
      const pts = series.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
      s += `<polyline class="series" data-seat="${seat}" fill="none" stroke="${D.colors[seat]}" stroke-width="2" points="${pts}"/>`;
    }
    s += `<line id="cursor" x1="${x(pos)}" x2="${x(pos)}" y1="${T}" y2="${H - B}" stroke="#111" stroke-dasharray="3 3"/>`;
    s += "</svg>";
    $("chart").innerHTML = s;
    $("charttitle").textContent = `${D.progress_label} by seat`;
    const svg = $("chartsvg");
    svg.addEventListener("click", (ev) => {
      const r = svg.getBoundingClientRect();
      const fx = (ev.clientX - r.left) / r.width * W;
      goto(Math.round((fx - L) / (W - L - R) * n));
    });
    svg._x = x;
  }

  function buildResult() {
    const r = D.result;
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
    const svg = $("chartsvg"), cur = $("cursor");
    if (svg && cur) { const cx = svg._x(p); cur.setAttribute("x1", cx); cur.setAttribute("x2", cx); }
    document.body.dataset.ply = String(p);
  }

  function setPerspective(k) {
    persp = k;
    $("perspective").value = k;
    buildMoves(); buildChart(); goto(pos);
  }

  function togglePlay() {
    if (timer) { clearInterval(timer); timer = null; $("play").innerHTML = "&#x25B6;"; return; }
    if (pos >= D.plies) goto(0);
    $("play").innerHTML = "&#x275A;&#x275A;";
    timer = setInterval(() => { if (pos >= D.plies) togglePlay(); else goto(pos + 1); }, Number($("speed").value));
  }

  function start() {
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
    buildResult();
    setPerspective(D.perspectives[0]);
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
