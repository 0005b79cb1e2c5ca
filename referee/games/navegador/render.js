/* Navegador board for the referee viewer: the sea regions from Portugal to Nagasaki
   with colonies and ships, the rondel, the market, the building display, the privilege
   gallery and every player's board. */
(() => {
  const GOOD = { sugar: "#f2efe6", gold: "#e8b923", spice: "#c2452d", "": "#999" };
  const GOOD_TEXT = { sugar: "#333", gold: "#333", spice: "#fff", "": "#fff" };
  // region centres on a stylised map (Portugal top left, Nagasaki top right)
  const POS = [[150, 70], [175, 175], [60, 235], [80, 345], [235, 285], [285, 395], [385, 315],
    [470, 190], [500, 305], [600, 265], [650, 370], [665, 160], [745, 75]];
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const T = (x, y, s, o = {}) => `<text x="${x}" y="${y}" font-size="${o.size || 12}" text-anchor="${o.anchor || "start"}" fill="${o.fill || "#1d232a"}"${o.weight ? ` font-weight="${o.weight}"` : ""}>${esc(s)}</text>`;
  const ship = (x, y, color) => `<path class="ship" d="M${x - 9},${y} L${x + 9},${y} L${x + 6},${y + 6} L${x - 6},${y + 6} Z M${x},${y} L${x},${y - 13} L${x + 8},${y - 3} Z" fill="${color}" stroke="#111" stroke-width="1"/>`;
  const tile = (x, y, good, label, cls) => `<g class="${cls}"><rect x="${x}" y="${y}" width="24" height="18" rx="3" fill="${label === "?" ? "#4b3b2a" : GOOD[good]}" stroke="#222"/>` + T(x + 12, y + 13, label, { anchor: "middle", size: 9, fill: label === "?" ? "#f3d9a4" : GOOD_TEXT[good], weight: 700 }) + "</g>";

  function map(f, ctx, st) {
    let s = `<g class="map"><rect x="10" y="10" width="800" height="450" rx="10" fill="#a9cbe0" stroke="#35607a" stroke-width="2"/>`;
    // land masses (stylised)
    s += `<path d="M105,20 L215,22 L230,120 L300,150 L340,250 L300,330 L275,445 L215,440 L205,330 L150,260 L120,160 Z" fill="#e4d3a6" opacity="0.75"/>`;
    s += `<path d="M15,190 L60,170 L105,220 L115,300 L80,440 L20,440 Z" fill="#cfe0a4" opacity="0.75"/>`;
    s += `<path d="M330,20 L800,20 L800,230 L720,260 L690,220 L620,230 L560,210 L520,260 L470,240 L430,150 L360,120 Z" fill="#e4d3a6" opacity="0.75"/>`;
    for (const [a, b] of st.borders) {
      const [x1, y1] = POS[a], [x2, y2] = POS[b];
      const red = (a === 4 && b === 5) || (a === 8 && b === 9);
      s += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${red ? "#c0392b" : "#2f5d75"}" stroke-width="${red ? 4 : 2.5}" stroke-dasharray="${red ? "" : "6 4"}"/>`;
    }
    f.regions.forEach((r, i) => {
      const [x, y] = POS[i] || [40 + i * 50, 430];
      const fill = r.explored ? "#dcecf5" : "#7c8a96";
      s += `<g class="region${r.explored ? " explored" : ""}" data-region="${i}">`;
      s += `<ellipse cx="${x}" cy="${y}" rx="56" ry="40" fill="${fill}" stroke="${r.double_loss ? "#c0392b" : "#35607a"}" stroke-width="${r.double_loss ? 3 : 1.5}"${r.explored ? "" : ' stroke-dasharray="5 3"'}/>`;
      s += T(x, y - 24, r.name.length > 14 ? r.name.slice(0, 13) + "…" : r.name, { anchor: "middle", size: 11, weight: 700, fill: r.explored ? "#1d232a" : "#f4f4f4" });
      // colony tiles: face up prices, then face-down backs
      const tiles = [...r.tiles.map((v) => [v, "colony-tile"]), ...Array(r.hidden).fill(["?", "colony-tile hidden"])];
      tiles.forEach(([v, cls], k) => { s += tile(x - 50 + k * 26, y - 16, r.good, String(v), cls); });
      // colonies founded here (who, and the tile's price)
      (((ctx.notes || {}).colonies || {})[String(i)] || []).forEach(([seat, price], k) => {
        const cx = x - 50 + (k % 4) * 26, cy = y + 2 + Math.floor(k / 4) * 13;
        s += `<g class="colony"><rect x="${cx}" y="${cy}" width="24" height="12" rx="2" fill="${ctx.colors[seat]}" stroke="#111"/>` + T(cx + 12, cy + 9, price, { anchor: "middle", size: 8.5, fill: "#fff", weight: 700 }) + "</g>";
      });
      if (f.reveal === i) s += `<ellipse cx="${x}" cy="${y}" rx="60" ry="44" fill="none" stroke="#ffcc00" stroke-width="4"/>`;
      // ships of every player
      let k = 0;
      f.players.forEach((p, seat) => {
        for (let n = 0; n < (p.ships[i] || 0); n++, k++) s += ship(x - 45 + (k % 8) * 13, y + 27 + Math.floor(k / 8) * 12, ctx.colors[seat]);
      });
      s += "</g>";
    });
    s += "</g>";
    return s;
  }

  function rondel(f, ctx, st, cx, cy) {
    const R = 92, r0 = 38, n = st.rondel.length;
    let s = `<g class="rondel"><circle cx="${cx}" cy="${cy}" r="${R + 4}" fill="#6d4c2f"/>`;
    const colors = { sailing: "#4a90c2", workers: "#b07a3f", market: "#d8b23a", colony: "#6aa84f", privilege: "#8e6bb5", ships: "#3f6f8f", buildings: "#a0522d" };
    for (let i = 0; i < n; i++) {
      const a0 = (i / n) * 2 * Math.PI - Math.PI / 2, a1 = ((i + 1) / n) * 2 * Math.PI - Math.PI / 2;
      const p = (a, rr) => `${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`;
      s += `<path d="M${p(a0, r0)} L${p(a0, R)} A${R},${R} 0 0 1 ${p(a1, R)} L${p(a1, r0)} A${r0},${r0} 0 0 0 ${p(a0, r0)} Z" fill="${colors[st.rondel[i]] || "#999"}" stroke="#3b2a1a"/>`;
      const am = (a0 + a1) / 2;
      s += T(cx + 66 * Math.cos(am), cy + 66 * Math.sin(am) + 4, st.rondel[i], { anchor: "middle", size: 10, fill: "#fff", weight: 700 });
      // stones on this space
      let k = 0;
      f.players.forEach((pl, seat) => {
        if (pl.stone === i) {
          const rr = 48 + (k % 2) * 0, ang = am + (k - 1) * 0.16;
          s += `<circle class="stone" cx="${(cx + rr * Math.cos(ang)).toFixed(1)}" cy="${(cy + rr * Math.sin(ang)).toFixed(1)}" r="7" fill="${ctx.colors[seat]}" stroke="#fff" stroke-width="1.5"/>`;
          k++;
        }
      });
      if (f.card_marker === i) s += `<rect x="${(cx + 84 * Math.cos(am) - 6).toFixed(1)}" y="${(cy + 84 * Math.sin(am) - 8).toFixed(1)}" width="12" height="16" fill="#fff" stroke="#111"/>`;
    }
    s += `<circle cx="${cx}" cy="${cy}" r="${r0 - 2}" fill="#f3e6c9"/>` + T(cx, cy - 4, `phase ${f.phase}`, { anchor: "middle", size: 12, weight: 700 }) + T(cx, cy + 12, f.stage, { anchor: "middle", size: 10 });
    return s + "</g>";
  }

  function market(f, st, x, y) {
    let s = `<g class="market"><rect x="${x}" y="${y}" width="200" height="252" rx="6" fill="#f6efe0" stroke="#7a6a50"/>` + T(x + 8, y + 16, "market", { size: 13, weight: 700 });
    st.goods.forEach((g, gi) => {
      const cx = x + 14 + gi * 46;
      s += `<rect x="${cx}" y="${y + 22}" width="40" height="14" fill="${GOOD[g]}" stroke="#444"/>` + T(cx + 20, y + 33, g, { anchor: "middle", size: 9, fill: GOOD_TEXT[g] });
      st.market_price[gi].forEach((v, row) => {
        const yy = y + 40 + row * 21, on = f.market[gi] === row;
        s += `<rect x="${cx}" y="${yy}" width="40" height="19" rx="2" fill="${on ? "#333" : "#fff"}" stroke="#bbb"${on ? ' class="market-cube"' : ""}/>` + T(cx + 20, yy + 14, v, { anchor: "middle", size: 10, fill: on ? "#fff" : "#555" });
      });
    });
    st.market_revenue.forEach((v, row) => { s += T(x + 160, y + 54 + row * 21, `+${v}`, { size: 10, fill: "#666" }); });
    return s + "</g>";
  }

  function display(f, st, x, y) {
    let s = `<g class="display"><rect x="${x}" y="${y}" width="250" height="150" rx="6" fill="#f6efe0" stroke="#7a6a50"/>` + T(x + 8, y + 16, "buildings (left · next cost)", { size: 12, weight: 700 });
    st.buildings.forEach((b, i) => {
      const yy = y + 24 + i * 24, left = f.display[i], taken = f.display_taken[i];
      const cost = st.building_costs[i][taken];
      s += T(x + 10, yy + 14, b, { size: 11 });
      for (let k = 0; k < left; k++) s += `<rect class="building-tile" x="${x + 70 + k * 15}" y="${yy + 2}" width="12" height="15" fill="${i < 3 ? GOOD[st.goods[i]] : (i === 3 ? "#5d7f99" : "#b9a37f")}" stroke="#333"/>`;
      s += T(x + 244, yy + 14, left > 0 && cost !== undefined ? cost : "—", { anchor: "end", size: 11, weight: 700 });
    });
    s += "</g>";
    s += `<g class="gallery"><rect x="${x}" y="${y + 158}" width="250" height="94" rx="6" fill="#f6efe0" stroke="#7a6a50"/>` + T(x + 8, y + 174, "privileges (gallery · box)", { size: 12, weight: 700 });
    st.columns.forEach((c, i) => {
      const xx = x + 10 + i * 48;
      s += T(xx, y + 192, c.slice(0, 8), { size: 9.5 });
      for (let k = 0; k < f.gallery[i]; k++) s += `<rect class="privilege-tile" x="${xx + k * 12}" y="${y + 198}" width="10" height="16" fill="#8e6bb5" stroke="#333"/>`;
      s += T(xx, y + 238, `box ${f.gallery_box[i]}`, { size: 9.5, fill: "#666" });
    });
    return s + "</g>";
  }

  function playerBoard(p, seat, ctx, st, x, y, w, mover, f) {
    const col = ctx.colors[seat];
    let s = `<g class="player" data-seat="${seat}"><rect x="${x}" y="${y}" width="${w}" height="128" rx="6" fill="${mover ? "#fff3c4" : "#fbf8f1"}" stroke="${col}" stroke-width="3"/>`;
    s += `<circle cx="${x + 14}" cy="${y + 16}" r="7" fill="${col}"/>` + T(x + 26, y + 20, ctx.seats[seat], { size: 12, weight: 700 });
    s += T(x + w - 8, y + 20, `${p.score} VP`, { anchor: "end", size: 12, weight: 700 });
    s += T(x + 10, y + 38, `${p.money} cruzados · ${p.workers} workers`, { size: 11 });
    const ships = p.ships.reduce((a, b) => a + b, 0);
    s += T(x + 10, y + 54, `${ships} ships · ${p.explorers} explorer · ${p.turns} turns`, { size: 11 });
    st.goods.forEach((g, gi) => {
      const xx = x + 10 + gi * 62;
      s += `<rect x="${xx}" y="${y + 62}" width="56" height="30" rx="3" fill="${GOOD[g]}" stroke="#555"/>`;
      s += T(xx + 4, y + 75, `col ${p.colonies[gi]}`, { size: 9.5, fill: GOOD_TEXT[g] }) + T(xx + 4, y + 88, `fac ${p.factories[gi]}`, { size: 9.5, fill: GOOD_TEXT[g] });
    });
    s += T(x + 10, y + 108, `wild ${p.wild} · yards ${p.shipyards} · churches ${p.churches}`, { size: 10.5 });
    s += T(x + 10, y + 122, "priv " + st.columns.map((c, i) => `${c[0]}${p.privileges[i]}`).join(" ") + (p.has_king ? " · King" : (p.king_col >= 0 ? ` · King@${st.columns[p.king_col]}` : "")) + (f.card_holder === seat ? " · card" : ""), { size: 10.5 });
    return s + "</g>";
  }

  function draw(f, ctx) {
    const st = ctx.static, W = 1310, n = f.players.length;
    const H = 470 + Math.ceil(n / 5) * 140 + 10;
    let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif"><rect width="${W}" height="${H}" fill="#efe6d2"/>`;
    s += map(f, ctx, st);
    s += rondel(f, ctx, st, 930, 112);
    s += market(f, st, 825, 214);
    s += display(f, st, 1040, 214);
    const mover = f.to_move >= 0 ? `${ctx.seats[f.to_move]} to move` : (f.to_move === -1 ? "chance" : "game over");
    s += T(1040, 30, mover, { size: 14, weight: 700 });
    if (f.end_seat >= 0) s += T(1040, 50, `end: ${ctx.seats[f.end_seat]} after ${f.end_turns} turns`, { size: 11, fill: "#b00020" });
    s += T(1040, 70, `card: ${ctx.seats[f.card_holder] ?? "-"}`, { size: 11 });
    const w = (W - 20 - (n - 1) * 8) / n;
    f.players.forEach((p, seat) => { s += playerBoard(p, seat, ctx, st, 10 + seat * (w + 8), 474, w, f.to_move === seat, f); });
    return s + "</svg>";
  }

  /* Board elements a person's click can choose (the human seat's page): [selector,
     data attribute, action fields it names, optional map from the attribute's text to
     the field's value]. */
  const targets = [["g.region", "region", ["region", "dst"], (v, st) => (st.regions || [])[Number(v)]]];
  RefereeViewer.register("navegador", { draw, targets });
})();
