/* Puerto Rico board for the referee viewer: role cards with their doubloons, cargo
   ships, trading house, colonist ship, plantations, the building supply, and every
   player's island and city with colonists, goods, doubloons and VP chips. */
(() => {
  const TILE = { corn: "#f2d22e", indigo: "#2b4c9b", sugar: "#f7f7f2", tobacco: "#9b6b3d", coffee: "#3d2b1f", quarry: "#8d8d8d" };
  const INK = { corn: "#333", indigo: "#fff", sugar: "#333", tobacco: "#fff", coffee: "#fff", quarry: "#fff" };
  const BLD = (b) => b.good ? TILE[b.good] : (b.large ? "#7e57c2" : "#b39ddb");
  const BLD_INK = (b) => b.good ? INK[b.good] : "#fff";
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const T = (x, y, s, o = {}) => `<text x="${x}" y="${y}" font-size="${o.size || 12}" text-anchor="${o.anchor || "start"}" fill="${o.fill || "#1d232a"}"${o.weight ? ` font-weight="${o.weight}"` : ""}>${esc(s)}</text>`;
  const colonist = (x, y) => `<circle class="colonist" cx="${x}" cy="${y}" r="5" fill="#5a3a22" stroke="#fff" stroke-width="1"/>`;
  const barrel = (x, y, good) => `<rect class="barrel" x="${x}" y="${y}" width="11" height="14" rx="3" fill="${TILE[good]}" stroke="#222"/>`;
  const short = (name) => name.replace(/_/g, " ").replace("small ", "sm. ").replace("large ", "lg. ").replace("construction", "constr.");

  function roles(f, ctx, x, y) {
    const all = [...Object.keys(f.roles), ...f.taken_roles];
    const order = ["settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"];
    const rank = (r) => { const i = order.indexOf(r.replace(/_\d+$/, "")); return i < 0 ? 99 : i; };
    all.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
    const gap = 6, w = Math.min(78, (600 - gap * (all.length - 1)) / all.length);
    let s = "";
    all.forEach((r, i) => {
      const taken = !(r in f.roles), xx = x + i * (w + gap), mid = xx + w / 2;
      const current = f.role === r;
      const name = r.replace(/_\d+$/, "");
      s += `<g class="role${taken ? " taken" : ""}" data-role="${esc(r)}"><rect x="${xx}" y="${y}" width="${w}" height="96" rx="6" fill="${taken ? "#ddd6c8" : "#f4e2b8"}" stroke="${current ? ctx.colors[f.chooser] || "#000" : "#8a7350"}" stroke-width="${current ? 4 : 1.5}"/>`;
      s += T(mid, y + 20, name.length > 9 ? name.slice(0, 8) + "." : name, { anchor: "middle", size: 11.5, weight: 700, fill: taken ? "#777" : "#3b2a1a" });
      if (taken) {
        const who = ((ctx.notes || {}).role_takers || {})[r] ?? (current ? f.chooser : undefined);
        if (who !== undefined) s += `<circle class="role-taker" cx="${mid}" cy="${y + 48}" r="9" fill="${ctx.colors[who]}" stroke="#333"/>`;
        s += T(mid, y + 76, who !== undefined ? `${ctx.seats[who] || ""}`.slice(0, 10) : "taken", { anchor: "middle", size: 9.5, fill: "#555" });
      }
      else {
        const coins = f.roles[r];
        for (let k = 0; k < coins; k++) s += `<circle class="role-doubloon" cx="${xx + 14 + (k % 4) * 13}" cy="${y + 48 + Math.floor(k / 4) * 13}" r="6" fill="#e8b923" stroke="#8a6d0b"/>`;
        s += T(mid, y + 88, `${coins} doubloon${coins === 1 ? "" : "s"}`, { anchor: "middle", size: 9.5, fill: "#555" });
      }
      s += "</g>";
    });
    return s;
  }

  function harbour(f, x, y) {
    let s = `<rect x="${x}" y="${y}" width="600" height="170" rx="8" fill="#a9cbe0" stroke="#35607a"/>`;
    f.ships.forEach((sh, i) => {
      const yy = y + 12 + i * 52;
      s += `<g class="cargo-ship"><path d="M${x + 10},${yy} L${x + 30 + sh.capacity * 16},${yy} L${x + 20 + sh.capacity * 16},${yy + 36} L${x + 20},${yy + 36} Z" fill="#8b5e3c" stroke="#3b2412" stroke-width="2"/>`;
      for (let k = 0; k < sh.capacity; k++) s += k < sh.load && sh.good ? barrel(x + 22 + k * 16, yy + 11, sh.good) : `<rect x="${x + 22 + k * 16}" y="${yy + 11}" width="11" height="14" rx="3" fill="none" stroke="#d7b98f"/>`;
      s += "</g>";
    });
    // trading house
    s += `<g class="trading-house"><rect x="${x + 200}" y="${y + 12}" width="140" height="70" rx="6" fill="#f4e2b8" stroke="#8a7350"/>` + T(x + 210, y + 28, "trading house", { size: 11, weight: 700 });
    for (let k = 0; k < 4; k++) {
      const g = f.trading_house[k];
      s += g ? barrel(x + 214 + k * 30, y + 40, g) : `<rect x="${x + 214 + k * 30}" y="${y + 40}" width="11" height="14" rx="3" fill="none" stroke="#b9a37f"/>`;
    }
    s += "</g>";
    // colonist ship and supplies
    s += `<g class="colonist-ship"><path d="M${x + 200},${y + 100} L${x + 340},${y + 100} L${x + 325},${y + 150} L${x + 215},${y + 150} Z" fill="#6d4c2f"/>` + T(x + 270, y + 96, "colonist ship", { anchor: "middle", size: 11, weight: 700 });
    for (let k = 0; k < f.colonist_ship; k++) s += `<circle class="ship-colonist" cx="${x + 222 + (k % 9) * 12}" cy="${y + 114 + Math.floor(k / 9) * 12}" r="4.5" fill="#5a3a22" stroke="#fff"/>`;
    s += "</g>";
    const lines = [`colonists in supply: ${f.colonist_supply}`, `VP chips left: ${f.vp_chips_left}`, `quarries: ${f.quarries}`, `plantation stack: ${f.plantation_stack}`, `round ${f.round} · governor ${f.governor}`];
    lines.forEach((l, i) => { s += T(x + 356, y + 24 + i * 18, l, { size: 11.5 }); });
    s += T(x + 356, y + 122, "goods supply", { size: 11, weight: 700 });
    f.goods_supply.forEach((n, gi) => {
      const g = ["corn", "indigo", "sugar", "tobacco", "coffee"][gi];
      s += barrel(x + 356 + gi * 46, y + 130, g) + T(x + 370 + gi * 46, y + 142, n, { size: 11 });
    });
    return s;
  }

  function plantations(f, x, y) {
    let s = `<g class="face-up"><rect x="${x}" y="${y}" width="600" height="44" rx="6" fill="#e7efd9" stroke="#7a8a5a"/>` + T(x + 8, y + 27, "plantations:", { size: 11, weight: 700 });
    let k = 0;
    f.face_up.forEach((n, gi) => {
      const g = ["corn", "indigo", "sugar", "tobacco", "coffee"][gi];
      for (let j = 0; j < n; j++, k++) s += `<rect class="plantation-tile" x="${x + 90 + k * 34}" y="${y + 8}" width="30" height="28" rx="3" fill="${TILE[g]}" stroke="#333"/>`;
    });
    return s + "</g>";
  }

  function supply(f, st, x, y) {
    let s = `<g class="building-supply"><rect x="${x}" y="${y}" width="672" height="320" rx="8" fill="#f6efe0" stroke="#7a6a50"/>` + T(x + 8, y + 16, "buildings (cost · VP · left)", { size: 12, weight: 700 });
    const cols = [[], [], [], []];
    st.buildings.forEach((b) => cols[b.column - 1].push(b));
    cols.forEach((list, c) => {
      list.forEach((b, i) => {
        const xx = x + 8 + c * 166, yy = y + 24 + i * (b.large ? 58 : 48);
        const left = f.building_supply[b.name] ?? 0;
        s += `<g class="supply-building" data-building="${esc(b.name)}" opacity="${left > 0 ? 1 : 0.35}"><rect x="${xx}" y="${yy}" width="160" height="${b.large ? 54 : 44}" rx="4" fill="${BLD(b)}" stroke="#333"/>`;
        s += T(xx + 6, yy + 15, short(b.name), { size: 11, weight: 700, fill: BLD_INK(b) });
        s += T(xx + 6, yy + 32, `${b.cost}d · ${b.vp}VP · ×${left}`, { size: 10.5, fill: BLD_INK(b) });
        s += "</g>";
      });
    });
    return s + "</g>";
  }

  function player(p, seat, f, ctx, st, x, y, w) {
    const col = ctx.colors[seat];
    const mover = f.order && f.order[f.turn] === seat && f.phase !== "over";
    let s = `<g class="player" data-seat="${seat}"><rect x="${x}" y="${y}" width="${w}" height="262" rx="8" fill="${mover ? "#fff3c4" : "#fbf8f1"}" stroke="${col}" stroke-width="3"/>`;
    s += `<circle cx="${x + 14}" cy="${y + 16}" r="7" fill="${col}"/>` + T(x + 26, y + 21, ctx.seats[seat] + (f.governor === seat ? " ♛ governor" : ""), { size: 12.5, weight: 700 });
    s += T(x + w - 8, y + 21, `${p.score} VP`, { anchor: "end", size: 12.5, weight: 700 });
    s += `<circle cx="${x + 16}" cy="${y + 38}" r="7" fill="#e8b923" stroke="#8a6d0b"/>` + T(x + 28, y + 42, `${p.doubloons}`, { size: 12 });
    s += `<rect x="${x + 58}" y="${y + 31}" width="16" height="14" rx="2" fill="#c9a227" stroke="#6b5410"/>` + T(x + 80, y + 42, `${p.vp} VP chips`, { size: 12 });
    let gx = x + 170;
    p.goods.forEach((n, gi) => { const g = st.goods[gi]; for (let k = 0; k < n; k++, gx += 13) s += barrel(gx, y + 30, g); });
    // island: 12 spaces, 4 x 3
    const ix = x + 8, iy = y + 54;
    s += `<rect x="${ix}" y="${iy}" width="${4 * 44 + 8}" height="${3 * 44 + 8}" rx="6" fill="#7fb069"/>`;
    let k = 0;
    st.tiles.forEach((t, ti) => {
      for (let j = 0; j < (p.plantations[ti] || 0); j++, k++) {
        const cx = ix + 4 + (k % 4) * 44, cy = iy + 4 + Math.floor(k / 4) * 44;
        s += `<g class="plantation" data-kind="${t}"><rect x="${cx}" y="${cy}" width="40" height="40" rx="4" fill="${TILE[t]}" stroke="#2d4d1f"/>`;
        s += j < (p.occupied[ti] || 0) ? colonist(cx + 20, cy + 20) : `<circle cx="${cx + 20}" cy="${cy + 20}" r="5" fill="none" stroke="${t === "sugar" || t === "corn" ? "#777" : "#ddd"}"/>`;
        s += "</g>";
      }
    });
    // city: 12 spaces, 4 columns of 3
    const cx0 = ix + 4 * 44 + 16, cw = Math.min(74, (w - (cx0 - x) - 8) / 4), ch = 44;
    s += `<rect x="${cx0}" y="${iy}" width="${4 * cw + 8}" height="${3 * ch + 8}" rx="6" fill="#e8dcc0"/>`;
    const byName = Object.fromEntries(st.buildings.map((b) => [b.name, b]));
    let slot = 0;
    for (const [name, n] of Object.entries(p.buildings)) {
      const b = byName[name] || { name, circles: 1, good: null, large: false };
      const span = b.large ? 2 : 1;
      if (b.large && slot % 3 === 2) slot += 1;
      const c = Math.floor(slot / 3), r = slot % 3;
      const bx = cx0 + 4 + c * cw, by = iy + 4 + r * ch;
      s += `<g class="city-building" data-name="${name}"><rect x="${bx}" y="${by}" width="${cw - 4}" height="${ch * span - 4}" rx="3" fill="${BLD(b)}" stroke="#333"/>`;
      s += T(bx + 3, by + 12, short(name).slice(0, 13), { size: 9, fill: BLD_INK(b), weight: 700 });
      for (let j = 0; j < b.circles; j++) s += j < n ? colonist(bx + 9 + j * 13, by + 28) : `<circle cx="${bx + 9 + j * 13}" cy="${by + 28}" r="5" fill="none" stroke="#fff"/>`;
      s += "</g>";
      slot += span;
    }
    s += T(ix, y + 208, `San Juan: `, { size: 11.5 });
    for (let j = 0; j < p.san_juan + p.unplaced; j++) s += colonist(ix + 66 + j * 12, y + 204);
    s += T(ix, y + 228, `city spaces ${p.city_spaces}/12`, { size: 11 });
    return s + "</g>";
  }

  function draw(f, ctx) {
    const st = ctx.static, n = f.players.length, W = 1300;
    const perRow = n <= 3 ? n : (n === 4 ? 2 : 3), rows = Math.ceil(n / perRow);
    const H = 350 + rows * 272;
    let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif"><rect width="${W}" height="${H}" fill="#efe6d2"/>`;
    const mover = f.phase === "over" ? "game over" : `${f.phase}` + (f.order && f.order[f.turn] !== undefined ? ` · ${ctx.seats[f.order[f.turn]]} to act` : "");
    s += T(10, 18, mover + (f.end_triggered ? " · last round" : ""), { size: 14, weight: 700 });
    s += roles(f, ctx, 10, 26);
    s += harbour(f, 10, 128);
    s += plantations(f, 10, 302);
    s += supply(f, st, 620, 26);
    const w = (W - 20 - (perRow - 1) * 10) / perRow;
    f.players.forEach((p, seat) => {
      const r = Math.floor(seat / perRow), c = seat % perRow;
      s += player(p, seat, f, ctx, st, 10 + c * (w + 10), 352 + r * 272, w);
    });
    return s + "</svg>";
  }

  /* Board elements a person's click can choose (the human seat's page): [selector,
     data attribute, action fields it names, optional map from the attribute's text to
     the field's value]. */
  const targets = [["g.role", "role", ["role"]], ["g.supply-building", "building", ["building"]], ["g.city-building", "name", ["building"]]];
  RefereeViewer.register("puerto-rico", { draw, targets });
})();
