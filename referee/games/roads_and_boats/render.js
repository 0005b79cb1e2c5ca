/* Roads & Boats board for the referee viewer: the hex map with terrain and rivers,
   roads, bridges, walls coloured by owner, buildings, homes, transporters with their
   cargo, loose goods, the wonder with its bricks, research and the turn order. */
(() => {
  const TERRAIN = { WOO: "#3f7d3a", PAS: "#a6cf6b", ROC: "#a8a29a", MTN: "#8a6a4f", DES: "#e9d28c", SEA: "#6fa8dc" };
  const TERRAIN_NAME = { WOO: "woods", PAS: "pasture", ROC: "rock", MTN: "mountain", DES: "desert", SEA: "sea" };
  const GOOD = { trunk: "#7b4a1e", board: "#d8ae72", paper: "#fafaf5", goose: "#ffffff", clay: "#c8643c", stone: "#8e8e8e", fuel: "#222222", iron: "#5f7282", gold: "#f2c200", coins: "#d9a400", stock: "#3a7d44" };
  const WATER = { raft: 1, rowboat: 1, steamer: 1 };
  const ANG = [-90, -30, 30, 90, 150, 210];
  /* Building letters on the map, one code per kind (the legend lists them). */
  const BUILDING_CODE = {
    woodcutter: "WC", quarry: "QY", clay_pit: "CP", mine: "MN", oil_rig: "OR", sawmill: "SM",
    coal_burner: "CB", papermill: "PM", stone_factory: "SF", mint: "MT", stock_exchange: "SX",
    wagon_factory: "WF", truck_factory: "TF", raft_factory: "RF", rowboat_factory: "RBF",
    steamer_factory: "STF",
  };
  const code = (kind) => BUILDING_CODE[kind] || String(kind).split("_").map((w) => w[0]).join("").toUpperCase().slice(0, 3);
  /* A name cut to n characters with an ellipsis (the whole name in a tooltip). */
  const fit = (name, n) => (String(name).length > n ? String(name).slice(0, n - 1) + "…" : String(name));
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const T = (x, y, s, o = {}) => `<text x="${x}" y="${y}" font-size="${o.size || 12}" text-anchor="${o.anchor || "start"}" fill="${o.fill || "#1d232a"}"${o.weight ? ` font-weight="${o.weight}"` : ""}>${esc(s)}</text>`;
  const rad = (a) => a * Math.PI / 180;
  const arr = (v) => (Array.isArray(v) ? v : []);

  function goodName(st, g) { return st.goods[g & ((1 << (st.good_bits || 4)) - 1)] || "?"; }
  function goodDot(st, g, x, y, cls) {
    const name = goodName(st, g);
    return `<rect class="${cls}" data-good="${name}" x="${(x - 3.5).toFixed(1)}" y="${(y - 3.5).toFixed(1)}" width="7" height="7" rx="${name === "goose" ? 3.5 : 1}" fill="${GOOD[name] || "#f0f"}" stroke="#111" stroke-width="0.6"/>`;
  }

  function hexPath(x, y, s) {
    const pts = [];
    for (let k = 0; k < 6; k++) pts.push(`${(x + s * Math.cos(rad(60 * k))).toFixed(1)},${(y + s * Math.sin(rad(60 * k))).toFixed(1)}`);
    return pts.join(" ");
  }

  function transporter(u, x, y, color, st) {
    const [id, , kind, , moved, cargo] = u;
    let s = `<g class="transporter" data-id="${id}" data-kind="${esc(kind)}">`;
    if (WATER[kind]) {
      const w = kind === "raft" ? 9 : (kind === "rowboat" ? 11 : 13);
      s += `<path d="M${x - w},${y - 3} L${x + w},${y - 3} L${x + w - 4},${y + 5} L${x - w + 4},${y + 5} Z" fill="${color}" stroke="#111" stroke-width="1.2"/>`;
      if (kind === "steamer") s += `<rect x="${x - 2}" y="${y - 10}" width="4" height="7" fill="#111"/>`;
    } else if (kind === "donkey") {
      s += `<circle cx="${x}" cy="${y}" r="6" fill="${color}" stroke="#111" stroke-width="1.2"/>`;
    } else {
      const w = kind === "truck" ? 9 : 7;
      s += `<rect x="${x - w}" y="${y - 5}" width="${2 * w}" height="10" rx="2" fill="${color}" stroke="#111" stroke-width="1.2"/>`;
    }
    if (moved) s += `<circle cx="${x + 7}" cy="${y - 6}" r="2" fill="#111"/>`;
    arr(cargo).forEach((g, k) => { s += goodDot(st, g, x - 8 + k * 8, y + 10, "cargo"); });
    return s + "</g>";
  }

  /* A faint drawing of the terrain (trees, peaks, stones, dunes, waves) under the pieces. */
  function glyph(x, y, ter, S) {
    const spots = [[-0.45, -0.35], [0.4, -0.4], [-0.1, 0.45], [0.5, 0.25], [-0.55, 0.2]];
    let s = "";
    for (const [dx, dy] of spots) {
      const cx = x + dx * S, cy = y + dy * S;
      if (ter === "WOO") s += `<path d="M${cx},${cy - 6} l5,9 h-10 Z" fill="#24562a" opacity="0.55"/>`;
      else if (ter === "MTN") s += `<path d="M${cx - 7},${cy + 4} l7,-10 l7,10 Z" fill="#5e4634" opacity="0.5"/>`;
      else if (ter === "ROC") s += `<circle cx="${cx}" cy="${cy}" r="3" fill="#6f6a63" opacity="0.5"/>`;
      else if (ter === "DES") s += `<path d="M${cx - 6},${cy + 2} q6,-6 12,0" fill="none" stroke="#b99a4a" stroke-width="1.5" opacity="0.7"/>`;
      else if (ter === "SEA") s += `<path d="M${cx - 6},${cy} q3,-3 6,0 t6,0" fill="none" stroke="#4a86bd" stroke-width="1.2" opacity="0.6"/>`;
      else if (ter === "PAS") s += `<path d="M${cx - 3},${cy + 2} l1,-5 M${cx},${cy + 2} l0,-6 M${cx + 3},${cy + 2} l-1,-5" stroke="#6f9b3e" stroke-width="1.2" opacity="0.7"/>`;
    }
    return s;
  }

  function mapLayer(f, ctx, st, L) {
    let s = "";
    const S = L.size;
    for (const [i, [x, y, ter]] of L.hexes.entries()) s += `<polygon class="hex" data-hex="${i}" data-terrain="${ter}" points="${hexPath(x, y, S)}" fill="${TERRAIN[ter] || "#ccc"}" stroke="#5a5a4a" stroke-width="1"/>` + glyph(x, y, ter, S);
    // rivers: centre to the middle of each river side
    const inner = S * Math.sqrt(3) / 2;
    for (const [x, y, , rivers] of L.hexes) {
      for (const d of arr(rivers)) s += `<line class="river" x1="${x}" y1="${y}" x2="${(x + inner * Math.cos(rad(ANG[d]))).toFixed(1)}" y2="${(y + inner * Math.sin(rad(ANG[d]))).toFixed(1)}" stroke="#2f7fd1" stroke-width="6" stroke-linecap="round"/>`;
    }
    // roads: land point - edge middle - land point
    const edge = (e) => L.edges[e];
    for (const e of arr(f.roads)) {
      const g = edge(e);
      if (!g) continue;
      const mx = (g[0] + g[2]) / 2, my = (g[1] + g[3]) / 2;
      s += `<polyline class="road" points="${g[4]},${g[5]} ${mx},${my} ${g[6]},${g[7]}" fill="none" stroke="#5b3a1a" stroke-width="4" stroke-linecap="round"/>`;
    }
    for (const br of arr(f.bank_roads)) {
      const g = edge(Array.isArray(br) ? br[0] : br);
      if (!g) continue;
      const half = Array.isArray(br) ? br[1] : 0;
      const mx = (g[0] + g[2]) / 2, my = (g[1] + g[3]) / 2;
      const cx = half ? (mx + g[2]) / 2 : (mx + g[0]) / 2, cy = half ? (my + g[3]) / 2 : (my + g[1]) / 2;
      s += `<polyline class="road bank-road" points="${g[4]},${g[5]} ${cx},${cy} ${g[6]},${g[7]}" fill="none" stroke="#5b3a1a" stroke-width="3" stroke-dasharray="5 3"/>`;
    }
    for (const b of arr(f.bridges)) {
      const h = b[0], side = b[1], hx = L.hexes[h];
      if (!hx || ANG[side] === undefined) continue;
      const x = hx[0] + inner * 0.5 * Math.cos(rad(ANG[side])), y = hx[1] + inner * 0.5 * Math.sin(rad(ANG[side]));
      s += `<rect class="bridge" x="${(x - 8).toFixed(1)}" y="${(y - 3).toFixed(1)}" width="16" height="6" fill="#6d4c2f" stroke="#111" transform="rotate(${ANG[side] + 90} ${x.toFixed(1)} ${y.toFixed(1)})"/>`;
    }
    for (const w of arr(f.walls)) {
      const e = w[0], owner = w[1], strength = w[2], g = edge(e);
      if (!g) continue;
      const col = owner >= 0 ? ctx.colors[owner] : "#444";
      s += `<line class="wall" x1="${g[0]}" y1="${g[1]}" x2="${g[2]}" y2="${g[3]}" stroke="${col}" stroke-width="${4 + 2 * Math.min(3, strength || 1)}" stroke-linecap="round"/>`;
      if (strength > 1) s += T((g[0] + g[2]) / 2, (g[1] + g[3]) / 2 + 4, strength, { anchor: "middle", size: 9, fill: "#fff", weight: 700 });
    }
    return s;
  }

  function piecesLayer(f, ctx, st, L) {
    let s = "";
    const P = L.places;
    const pt = (p) => (P[p] ? [P[p][0], P[p][1]] : null);
    // homes
    arr(f.homes).forEach((p, seat) => {
      const q = pt(p);
      if (!q) return;
      const x = q[0], y = q[1];
      s += `<path class="home" d="M${x - 11},${y + 2} L${x},${y - 10} L${x + 11},${y + 2} L${x + 11},${y + 12} L${x - 11},${y + 12} Z" fill="${ctx.colors[seat]}" stroke="#111" stroke-width="1.5" opacity="0.9"/>`;
    });
    // buildings
    for (const b of arr(f.buildings)) {
      const kind = b[1], place = b[2], owner = b[3], bagGold = b[5], bagIron = b[6];
      const q = pt(place);
      if (!q) continue;
      const x = q[0], y = q[1];
      const abbr = code(kind);
      s += `<g class="building" data-kind="${esc(kind)}"><rect x="${x - 13}" y="${y - 22}" width="26" height="16" rx="3" fill="#fdf6e3" stroke="${owner >= 0 ? ctx.colors[owner] : "#333"}" stroke-width="2"/>` + T(x, y - 10, abbr, { anchor: "middle", size: 9, weight: 700 });
      if (kind === "mine") s += T(x + 16, y - 10, `${bagGold}g${bagIron}i`, { size: 8 });
      s += `<title>${esc(kind)}</title></g>`;
    }
    // loose goods
    for (const pile of arr(f.piles)) {
      const place = pile[0], goods = pile[1], q = pt(place);
      if (!q) continue;
      arr(goods).forEach((g, k) => { s += goodDot(st, g, q[0] - 12 + (k % 5) * 8, q[1] + 14 + Math.floor(k / 5) * 8, "good"); });
    }
    // transporters, spread around their place; carried ones next to their carrier
    const groups = new Map();
    for (const u of arr(f.transporters)) {
      const key = u[6] >= 0 ? `c${u[6]}` : `p${u[3]}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(u);
    }
    const pos = new Map();
    for (const u of arr(f.transporters)) {
      if (u[6] >= 0) continue;
      const list = groups.get(`p${u[3]}`), k = list.indexOf(u), q = pt(u[3]);
      if (!q) continue;
      const n = list.length, ang = n > 1 ? rad(-45 + 360 * k / n) : 0, r = n > 1 ? 11 : 0;
      pos.set(u[0], [q[0] + r * Math.cos(ang), q[1] + r * Math.sin(ang)]);
    }
    for (const u of arr(f.transporters)) {
      if (u[6] < 0) continue;
      const base = pos.get(u[6]) || pt(u[3]);
      if (!base) continue;
      const list = groups.get(`c${u[6]}`), k = list.indexOf(u);
      pos.set(u[0], [base[0] + 12 + 10 * k, base[1] - 10]);
    }
    for (const u of arr(f.transporters)) {
      const q = pos.get(u[0]);
      if (!q) continue;
      const color = u[1] >= 0 ? ctx.colors[u[1]] : "#777";
      s += transporter(u, +q[0].toFixed(1), +q[1].toFixed(1), color, st);
    }
    return s;
  }

  const dot = (x, y, seat, ctx) => `<circle cx="${x}" cy="${y}" r="5" fill="${ctx.colors[seat]}"/>`;
  /* Seats as numbered dots in a row (the turn order, the temple queue). */
  function seatRow(list, x, y, ctx, sep) {
    let s = "";
    arr(list).forEach((q, k) => {
      const cx = x + k * 40;
      s += dot(cx + 5, y - 4, q, ctx) + T(cx + 13, y, `${q}${k < list.length - 1 ? sep : ""}`, { size: 11 });
    });
    return s;
  }

  /* The side panel; returns [svg, height used]. */
  function panel(f, ctx, st, x, y) {
    let s = T(x + 10, y + 22, `turn ${f.turn} · ${f.stage} · ${f.step}`, { size: 13, weight: 700 });
    // seats: the whole name once, the rest of the panel refers to seats by colour
    let yy = y + 42;
    ctx.seats.forEach((name, seat) => {
      s += `<g class="seat-name">${dot(x + 16, yy - 4, seat, ctx)}${T(x + 26, yy, `${seat}: ${fit(name, 44)}`, { size: 11 })}<title>${esc(name)}</title></g>`;
      yy += 15;
    });
    yy += 4;
    s += T(x + 10, yy, "order:", { size: 11 }) + seatRow(f.sequence, x + 60, yy, ctx, " →");
    yy += 16;
    s += T(x + 10, yy, "temple:", { size: 11 }) + seatRow(f.temple, x + 60, yy, ctx, ",");
    // wonder: rows of bricks, bottom row first
    const wonder = arr(f.wonder), perRow = 8, bw = 30, bh = 12;
    const rows = Math.max(4, Math.ceil(wonder.length / perRow));
    yy += 20;
    s += T(x + 10, yy, `wonder (${wonder.length} bricks, ${f.neutral_left ?? "?"} neutral left)`, { size: 11, weight: 700 });
    const wy = yy + 4 + rows * (bh + 2);
    wonder.forEach((owner, k) => {
      const r = Math.floor(k / perRow), c = k % perRow;
      const col = owner >= 0 ? ctx.colors[owner] : "#b9b2a3";
      s += `<rect class="brick" x="${x + 20 + c * (bw + 2) + (r % 2) * 8}" y="${wy - (r + 1) * (bh + 2)}" width="${bw}" height="${bh}" fill="${col}" stroke="#5b4a3a"/>`;
    });
    yy = wy + 20;
    s += T(x + 10, yy, "research", { size: 11, weight: 700 });
    arr(f.research).forEach((list, seat) => {
      yy += 16;
      s += dot(x + 16, yy - 4, seat, ctx) + T(x + 26, yy, fit(arr(list).join(", ") || "—", 48), { size: 10.5 });
    });
    yy += 22;
    s += T(x + 10, yy, "transporters", { size: 11, weight: 700 });
    ctx.seats.forEach((name, seat) => {
      yy += 16;
      const kinds = {};
      arr(f.transporters).filter((u) => u[1] === seat).forEach((u) => { kinds[u[2]] = (kinds[u[2]] || 0) + 1; });
      s += dot(x + 16, yy - 4, seat, ctx) + T(x + 26, yy, fit(Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(", ") || "none", 48), { size: 10.5 });
    });
    yy += 24;
    s += T(x + 10, yy, "goods", { size: 11, weight: 700 });
    st.goods.forEach((g, k) => {
      const gx = x + 14 + (k % 4) * 70, gy = yy + 14 + Math.floor(k / 4) * 16;
      s += `<rect x="${gx}" y="${gy - 8}" width="8" height="8" fill="${GOOD[g]}" stroke="#111" stroke-width="0.6"/>` + T(gx + 12, gy, g, { size: 10 });
    });
    yy += 14 + Math.ceil(st.goods.length / 4) * 16 + 8;
    s += T(x + 10, yy, "terrain", { size: 11, weight: 700 });
    Object.entries(TERRAIN_NAME).forEach(([k, name], i) => {
      const gx = x + 14 + (i % 3) * 92, gy = yy + 14 + Math.floor(i / 3) * 16;
      s += `<rect x="${gx}" y="${gy - 9}" width="12" height="10" fill="${TERRAIN[k]}" stroke="#333"/>` + T(gx + 16, gy, name, { size: 10 });
    });
    yy += 14 + 2 * 16 + 8;
    s += `<g class="legend-map">` + T(x + 10, yy, "map", { size: 11, weight: 700 });
    const own = ctx.colors[0];
    const keys = [
      [`<line x1="0" y1="0" x2="20" y2="0" stroke="#2f7fd1" stroke-width="6" stroke-linecap="round"/>`, "river"],
      [`<line x1="0" y1="0" x2="20" y2="0" stroke="#5b3a1a" stroke-width="4" stroke-linecap="round"/>`, "road"],
      [`<line x1="0" y1="0" x2="20" y2="0" stroke="#5b3a1a" stroke-width="3" stroke-dasharray="5 3"/>`, "road on a river bank"],
      [`<rect x="2" y="-3" width="16" height="6" fill="#6d4c2f" stroke="#111"/>`, "bridge"],
      [`<line x1="0" y1="0" x2="20" y2="0" stroke="${own}" stroke-width="8" stroke-linecap="round"/>` + T(10, 3, "2", { anchor: "middle", size: 9, fill: "#fff", weight: 700 }), "wall, owner's colour (number: tokens)"],
      [`<path d="M-1,3 L10,-7 L21,3 L21,9 L-1,9 Z" transform="translate(3 -1) scale(0.7)" fill="${own}" stroke="#111"/>`, "home"],
      [`<circle cx="10" cy="0" r="5" fill="${own}" stroke="#111"/><rect x="20" y="-4" width="14" height="8" rx="2" fill="${own}" stroke="#111"/>`, "donkey, wagon / truck", 56],
      [`<path d="M1,-3 L19,-3 L15,4 L5,4 Z" fill="${own}" stroke="#111"/><circle cx="26" cy="-4" r="2" fill="#111"/>`, "boat; black dot: moved this turn", 48],
    ];
    keys.forEach(([glyphSvg, label, dx], i) => {
      const gy = yy + 16 + i * 16;
      s += `<g transform="translate(${x + 14} ${gy - 4})">${glyphSvg}</g>` + T(x + 14 + (dx || 28), gy, label, { size: 10 });
    });
    yy += 16 + keys.length * 16 + 6;
    s += T(x + 10, yy, "buildings (border: owner's colour)", { size: 10.5, weight: 700 });
    Object.entries(BUILDING_CODE).forEach(([kind, c], i) => {
      const gx = x + 14 + (i % 2) * 140, gy = yy + 16 + Math.floor(i / 2) * 15;
      s += `<rect x="${gx}" y="${gy - 10}" width="24" height="13" rx="2" fill="#fdf6e3" stroke="#333"/>` + T(gx + 12, gy, c, { anchor: "middle", size: 8.5, weight: 700 }) + T(gx + 29, gy, kind === "mine" ? "mine (2g1i: gold, iron)" : kind.replace(/_/g, " "), { size: 10 });
    });
    yy += 16 + Math.ceil(Object.keys(BUILDING_CODE).length / 2) * 15;
    s += "</g>";
    const h = yy - y + 6;
    return [`<rect class="panel" x="${x}" y="${y}" width="300" height="${h}" rx="8" fill="#f6efe0" stroke="#7a6a50"/>` + s, h];
  }

  function draw(f, ctx) {
    const st = ctx.static, L = st.layout;
    if (!L) return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 60"><text x="10" y="30">no map geometry: ${esc(st.layout_error || "")}</text></svg>`;
    const [x0, y0, x1, y1] = L.box;
    const mw = x1 - x0, mh = y1 - y0;
    const [side, sideH] = panel(f, ctx, st, mw + 10, 6);
    const H = Math.max(mh, sideH + 12), W = mw + 320;
    let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W.toFixed(0)} ${H.toFixed(0)}" font-family="system-ui, sans-serif"><rect width="100%" height="100%" fill="#eef3f6"/>`;
    s += `<g class="map" transform="translate(${(-x0).toFixed(1)} ${(-y0).toFixed(1)})">` + mapLayer(f, ctx, st, L) + piecesLayer(f, ctx, st, L) + "</g>";
    s += side;
    return s + "</svg>";
  }

  /* Board elements a person's click can choose (the human seat's page): [selector,
     data attribute, action fields it names, optional map from the attribute's text to
     the field's value]. */
  const targets = [["polygon.hex", "hex", ["hex"], (v) => Number(v)]];
  RefereeViewer.register("roads-and-boats", { draw, targets });
})();
