/* Manila board for the referee viewer: harbour lanes 0-13, port and shipyard with
   their offices, pirates, pilots, insurance, share-price track, players' holdings. */
(() => {
  const GOOD_COLORS = { nutmeg: "#9a6324", silk: "#3b6fd6", ginseng: "#e3a21a", jade: "#2e9e6a" };
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const T = (x, y, s, o = {}) => `<text x="${x}" y="${y}" font-size="${o.size || 13}" text-anchor="${o.anchor || "start"}" fill="${o.fill || "#1d232a"}"${o.weight ? ` font-weight="${o.weight}"` : ""}>${esc(s)}</text>`;
  const meeple = (x, y, color, cls, r = 9) =>
    `<g class="${cls}"><circle cx="${x}" cy="${y - r * 0.75}" r="${r * 0.55}" fill="${color}" stroke="#222" stroke-width="1"/>` +
    `<path d="M${x - r},${y + r} Q${x - r},${y} ${x},${y - r * 0.2} Q${x + r},${y} ${x + r},${y + r} Z" fill="${color}" stroke="#222" stroke-width="1"/></g>`;

  function punt(x, y, good, crew, costs, ctx, lane) {
    const w = 150, h = 40, col = GOOD_COLORS[good] || "#888";
    let s = `<g class="punt" data-good="${good}" data-lane="${lane}">`;
    s += `<path d="M${x},${y} L${x + w},${y} L${x + w - 16},${y + h} L${x + 16},${y + h} Z" fill="#8b5e3c" stroke="#3b2412" stroke-width="2"/>`;
    s += `<rect x="${x + 8}" y="${y + 4}" width="26" height="${h - 8}" rx="3" fill="${col}" stroke="#222"/>`;
    s += T(x + 21, y + h / 2 + 4, good[0].toUpperCase(), { anchor: "middle", fill: "#fff", weight: 700, size: 13 });
    costs.forEach((c, i) => {
      const cx = x + 48 + i * 24, cy = y + h / 2;
      const who = crew[i];
      if (who !== undefined && who >= 0) s += meeple(cx, cy, ctx.colors[who], "crew", 8);
      else s += `<circle cx="${cx}" cy="${cy}" r="9" fill="#f3e6cf" stroke="#3b2412"/>` + T(cx, cy + 4, c, { anchor: "middle", size: 10 });
    });
    return s + "</g>";
  }

  function office(x, y, label, cost, payout, who, ctx, cls, spot) {
    let s = `<g class="office ${cls}" data-spot="${spot}"><rect x="${x}" y="${y}" width="84" height="44" rx="5" fill="#fffaf0" stroke="#7a6a50"/>`;
    s += T(x + 6, y + 15, label, { size: 12, weight: 700 }) + T(x + 6, y + 36, `${cost}→${payout}`, { size: 11, fill: "#555" });
    if (who >= 0) s += meeple(x + 64, y + 24, ctx.colors[who], "accomplice", 9);
    return s + "</g>";
  }

  function draw(f, ctx) {
    const st = ctx.static, W = 1100, H = 790;
    const goods = st.goods;
    let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif">`;
    s += `<rect width="${W}" height="${H}" fill="#f1e7d0"/>`;
    // status line
    const mover = f.to_move >= 0 ? `${ctx.seats[f.to_move]} to move` : (f.to_move === -1 ? "chance" : "game over");
    s += T(20, 24, `Voyage ${f.voyage} · ${f.phase} · ${mover}` + (f.high_bid > 0 ? ` · high bid ${f.high_bid}` : ""), { size: 16, weight: 700 });
    // harbour: lanes of 14 spaces
    const X0 = 30, SW = 46, Y0 = 50, LH = 100;
    s += `<rect x="${X0 - 10}" y="${Y0 - 8}" width="${SW * 14 + 20}" height="${LH * 3 + 6}" rx="8" fill="#6fa8c7" stroke="#2f5d75" stroke-width="2"/>`;
    for (let lane = 0; lane < 3; lane++) {
      const y = Y0 + lane * LH;
      for (let k = 0; k <= 13; k++) {
        const fill = k === 13 ? "#3c3c3c" : (k === 0 ? "#a9cfe0" : "#8fc0d8");
        s += `<rect x="${X0 + k * SW}" y="${y}" width="${SW - 4}" height="${LH - 14}" rx="4" fill="${fill}" stroke="#2f5d75" opacity="0.9"/>`;
        s += T(X0 + k * SW + 4, y + 14, k === 13 ? "13 ☠" : k, { size: 11, fill: k === 13 ? "#fff" : "#1b3a4b" });
      }
    }
    // dice
    const roll = f.last_roll || {};
    let dx = 20;
    if (Object.keys(roll).length) {
      s += T(X0 + 14 * SW + 14, Y0 + 10, "dice", { size: 12, fill: "#555" });
      for (const [g, v] of Object.entries(roll)) {
        const x = X0 + 14 * SW + 14, y = Y0 + 18 + dx;
        s += `<g class="die"><rect x="${x}" y="${y - 18}" width="30" height="30" rx="5" fill="#fff" stroke="${GOOD_COLORS[g] || "#444"}" stroke-width="3"/>` + T(x + 15, y + 3, v, { anchor: "middle", size: 16, weight: 700 }) + "</g>";
        dx += 38;
      }
    }
    // port and shipyard
    const PX = 790;
    const area = (y, name, offices, cls, fill) => {
      let t = `<rect x="${PX}" y="${y}" width="290" height="220" rx="8" fill="${fill}" stroke="#7a6a50" stroke-width="2"/>` + T(PX + 10, y + 20, name, { size: 15, weight: 700 });
      ["A", "B", "C"].forEach((b, i) => {
        t += `<rect x="${PX + 14}" y="${y + 28 + i * 46}" width="170" height="42" rx="4" fill="none" stroke="#a08d6b" stroke-dasharray="4 3"/>`;
        t += office(PX + 196, y + 26 + i * 62, `${name} ${b}`.replace("shipyard", "yard"), st.office_costs[i], st.office_payouts[i], offices[i] ?? -1, ctx, cls, `${cls}-${"abc"[i]}`);
      });
      return t;
    };
    s += area(40, "port", f.port || [], "port", "#e8f1e0") + area(270, "shipyard", f.shipyard || [], "shipyard", "#efe3dc");
    // punts (after the port and shipyard so docked punts sit on their berths)
    const placed = { port: 0, shipyard: 0 };
    let punts = "";
    (f.cargo || []).forEach((good, i) => {
      const dest = (f.destinations || [])[i] || "sea", crew = (f.crews || [])[i] || [];
      const costs = st.seat_costs[goods.indexOf(good)] || [];
      if (dest === "sea") {
        const p = Math.max(0, Math.min(13, (f.positions || [])[i] ?? 0));
        const x = Math.max(X0, Math.min(X0 + p * SW - 40, X0 + 14 * SW - 150));
        punts += punt(x, Y0 + i * LH + 26, good, crew, costs, ctx, i);
        if (f.plundered && f.plundered[i]) punts += T(X0 + p * SW, Y0 + i * LH + 84, "plundered", { size: 11, fill: "#b00020", weight: 700 });
      } else {
        const list = (dest === "port" ? f.port_boats : f.shipyard_boats) || [];
        let berth = list.indexOf(good);
        if (berth < 0) berth = placed[dest];
        placed[dest] += 1;
        const y = (dest === "port" ? 40 : 270) + 29 + berth * 46;
        punts += punt(PX + 24, y, good, crew, costs, ctx, i);
      }
    });
    s += punts;
    // pirates, pilots, insurance
    const RY = 364;
    s += `<g class="pirate-ship" data-spot="pirate"><rect x="${X0}" y="${RY}" width="200" height="56" rx="6" fill="#3c3c3c"/>` + T(X0 + 8, RY + 18, "pirates (5)", { fill: "#fff", size: 12, weight: 700 });
    for (let i = 0; i < Math.max(2, (f.pirates || []).length); i++) {
      const who = (f.pirates || [])[i];
      if (who !== undefined && who >= 0) s += meeple(X0 + 40 + i * 34, RY + 38, ctx.colors[who], "accomplice pirate", 9);
      else s += `<circle cx="${X0 + 40 + i * 34}" cy="${RY + 38}" r="9" fill="none" stroke="#aaa"/>`;
    }
    s += "</g>";
    const slot = (x, label, who, cls, spot) => `<g class="${cls}" data-spot="${spot}"><rect x="${x}" y="${RY}" width="150" height="56" rx="6" fill="#fffaf0" stroke="#7a6a50"/>` + T(x + 8, RY + 18, label, { size: 12, weight: 700 }) +
      (who >= 0 ? meeple(x + 120, RY + 32, ctx.colors[who], "accomplice", 10) : `<circle cx="${x + 120}" cy="${RY + 32}" r="10" fill="none" stroke="#bbb"/>`) + "</g>";
    s += slot(X0 + 210, "small pilot (2)", f.small_pilot, "pilot", "pilot-small");
    s += slot(X0 + 370, "large pilot (5)", f.large_pilot, "pilot", "pilot-large");
    s += slot(X0 + 530, "insurance (+10)", f.insurance, "insurance", "insurance");
    // share price track
    const TX = 30, TY = 500;
    s += `<rect x="${TX}" y="${TY}" width="300" height="280" rx="8" fill="#fffaf0" stroke="#7a6a50"/>` + T(TX + 10, TY + 20, "share prices", { size: 14, weight: 700 });
    const track = st.price_track;
    goods.forEach((g, gi) => {
      const x = TX + 30 + gi * 68;
      s += T(x + 20, TY + 42, g, { anchor: "middle", size: 12, fill: GOOD_COLORS[g] || "#333", weight: 700 });
      s += T(x + 20, TY + 58, `supply ${f.supply[g]}`, { anchor: "middle", size: 10, fill: "#666" });
      track.forEach((v, ti) => {
        const y = TY + 250 - ti * 44;
        const on = f.prices[g] === v;
        s += `<rect x="${x}" y="${y - 28}" width="40" height="36" rx="4" fill="${on ? GOOD_COLORS[g] : "#fff"}" stroke="#999" class="${on ? "price-marker" : ""}"/>`;
        s += T(x + 20, y - 5, v, { anchor: "middle", size: 13, fill: on ? "#fff" : "#555", weight: on ? 700 : 400 });
      });
    });
    // players
    const PY = 500, rowH = Math.min(56, 280 / f.seats);
    s += `<rect x="350" y="${PY}" width="730" height="280" rx="8" fill="#fffaf0" stroke="#7a6a50"/>`;
    for (let seat = 0; seat < f.seats; seat++) {
      const y = PY + 8 + seat * rowH, col = ctx.colors[seat];
      s += `<g class="player" data-seat="${seat}">`;
      if (f.to_move === seat) s += `<rect x="354" y="${y - 2}" width="722" height="${rowH - 2}" rx="5" fill="#fff3c4"/>`;
      s += `<circle cx="372" cy="${y + rowH / 2 - 2}" r="9" fill="${col}" stroke="#222"/>`;
      s += T(388, y + 16, ctx.seats[seat].slice(0, 20), { size: 13, weight: 700 });
      if (f.harbour_master === seat) s += `<g class="harbour-master"><rect x="562" y="${y + 2}" width="40" height="${rowH - 12}" rx="4" fill="#e8b923" stroke="#8a6d0b"/>` + T(582, y + rowH / 2 + 2, "HM", { anchor: "middle", size: 12, weight: 700 }) + "<title>harbour master</title></g>";
      s += T(388, y + 34, `${f.cash[seat]} pesos`, { size: 13 });
      for (let a = 0; a < (f.accomplices[seat] || 0); a++) s += meeple(490 + a * 20, y + 30, col, "hand-accomplice", 7);
      // shares
      let cx = 612;
      const hands = f.hands ? f.hands[seat] : (seat === f.seat ? f.hand : null);
      const morts = f.mortgaged_hands ? f.mortgaged_hands[seat] : (seat === f.seat ? f.mortgaged : null);
      const card = (good, face, mort) => {
        const fill = face ? (GOOD_COLORS[good] || "#888") : "#5b4a3a";
        let c = `<g class="share ${face ? "share-face" : "share-back"}${mort ? " mortgaged" : ""}"${face ? ` data-good="${good}"` : ""}><rect x="${cx}" y="${y + 2}" width="30" height="${rowH - 10}" rx="3" fill="${fill}" stroke="#222" ${mort ? 'stroke-dasharray="3 2" opacity="0.55"' : ""}/>`;
        c += T(cx + 15, y + rowH / 2 + 1, face ? good.slice(0, 3) : "?", { anchor: "middle", size: 10, fill: "#fff", weight: 700 }) + "</g>";
        cx += 34;
        return c;
      };
      if (hands) {
        for (const g of goods) for (let k = 0; k < (hands[g] || 0); k++) s += card(g, true, false);
        if (morts) for (const g of goods) for (let k = 0; k < (morts[g] || 0); k++) s += card(g, true, true);
      } else {
        const n = f.shares[seat] || 0, m = f.mortgaged_counts[seat] || 0;
        for (let k = 0; k < n - m; k++) s += card("", false, false);
        for (let k = 0; k < m; k++) s += card("", false, true);
      }
      s += "</g>";
    }
    s += "</svg>";
    return s;
  }

  /* Board elements a person's click can choose (the human seat's page): [selector,
     data attribute, action fields it names, optional map from the attribute's text to
     the field's value]. */
  const targets = [["g.punt", "good", ["good", "spot"]], ["g[data-spot]", "spot", ["spot"]]];
  RefereeViewer.register("manila", { draw, targets });
})();
