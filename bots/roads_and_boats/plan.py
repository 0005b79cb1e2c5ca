"""The target list (producers, industry, clay, rafts) and the game's pace: how long the
game is expected to last, the last turn, the goods kept back from the wonder, and what
each secondary building is fed.

One layer of :class:`bots.roads_and_boats.planner.Planner` (see its docstring)."""

from __future__ import annotations

from bots.roads_and_boats import settings as S
from bots.roads_and_boats.geometry import brick_cost, neighbours
from bots.roads_and_boats.survey import Survey
from referee.games.roads_and_boats import data as D
from referee.games.roads_and_boats.state import RBState


class Plan(Survey):
    """The target list and the game's pace."""

    def _targets(self, state: RBState) -> list[tuple[int, int]]:
        """Producers still to build, best first: (land area, building kind); within one
        ``choose`` the list is worked out once (callers must not change it)."""
        if self._target_list is not None:
            return self._target_list
        kept = self._plan_targets(state)
        if self._land_steps is not None:  # inside choose
            self._target_list = kept
        return kept

    def _plan_targets(self, state: RBState) -> list[tuple[int, int]]:
        """``_targets`` worked out from ``state``."""
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        own = [b[0] for b in state.buildings.values() if b[2] == self.seat]
        sites: dict[str, list[int]] = {D.WOODS: [], D.ROCK: [], D.MOUNTAIN: []}
        for q in neighbours(state, home):
            j = w.place_hex[q]
            terrain = w.hexes[j].terrain
            if j != hh and j not in state.buildings and terrain in sites:
                sites[terrain].append(q)
        woods = sites[D.WOODS]
        room = max(0, S.MINES - own.count(D.MINE))
        if S.FAR_MINES:
            sites[D.MOUNTAIN] += self._far_sites(state, D.MOUNTAIN)
        if S.FAR_QUARRY and not sites[D.ROCK] and D.QUARRY not in own:
            sites[D.ROCK] += self._far_sites(state, D.ROCK)[:1]
        mines = [(q, D.MINE) for q in sites[D.MOUNTAIN][:room]]
        islands: list[int] = []
        raft_site: int | None = None
        raft_plan = self._raft_seats(state) and self._long_plan(state)
        if raft_plan and not mines and w.hexes[hh].terrain != D.MOUNTAIN:
            islands = self._islands(state)[: max(0, S.RAFT_MINES - own.count(D.MINE))]
        if islands:
            if S.RAFT_QUARRY and not sites[D.ROCK] and D.QUARRY not in own:
                sites[D.ROCK] += self._far_sites(state, D.ROCK)[:1]
            if D.RAFT_FACTORY not in own and not self._rafts(state):
                cutter = set(woods[:1]) if D.WOODCUTTER not in own else set()
                raft_site = self._raft_factory_site(state, cutter)
        out: list[tuple[int, int]] = []
        if D.WOODCUTTER not in own and woods:
            out.append((woods.pop(0), D.WOODCUTTER))
        home_mine: list[tuple[int, int]] = []
        long = S.LONG_PLAN and self._long_plan(state)
        first = S.MINE_FIRST or (
            S.MINE_FIRST_NO_ROCK and not sites[D.ROCK] and D.QUARRY not in own and not long
        )
        if first and not (hh not in state.buildings and w.hexes[hh].terrain == D.MOUNTAIN):
            out.extend(mines[:1])
            mines = mines[1:]
        if hh not in state.buildings:
            terrain = w.hexes[hh].terrain
            if terrain == D.MOUNTAIN and S.HOME_MINE and room:
                home_mine.append((home, D.MINE))
            elif (
                S.HOME_WOODCUTTER
                and terrain == D.WOODS
                and len(woods) + own.count(D.WOODCUTTER) < S.HOME_WOODCUTTER_WOODS
                and not (long and S.LONG_HOME_SAWMILL)
            ):
                if not (S.HOME_WAIT and S.LONG_HOME_SAWMILL and state.turn <= S.LONG_PLAN_FROM):
                    out.append((home, D.WOODCUTTER))  # (turn 1: the pace decides next turn)
            elif terrain != D.DESERT or state.irrigated:
                out.append((home, D.SAWMILL))
        mined_home = hh in state.buildings and state.buildings[hh][0] == D.MINE
        if D.SAWMILL not in own and (home_mine or mined_home):
            spots = []  # the sawmill next door instead: pasture first, never a mountain
            taken = {q for q, _kind in out} | set(woods[:1])
            for q in neighbours(state, home):
                j = w.place_hex[q]
                terrain = w.hexes[j].terrain
                if j == hh or j in state.buildings or terrain in (D.MOUNTAIN, D.DESERT):
                    continue
                if q in taken:
                    continue
                spare = terrain == D.PASTURE or (terrain == D.ROCK and len(sites[D.ROCK]) > 1)
                spots.append((0 if spare else 1 if terrain == D.ROCK else 2, q))
            if spots:
                out.append((min(spots)[1], D.SAWMILL))
        if home_mine and S.HOME_MINE_EARLY and not (long and S.LONG_SAWMILL_FIRST):
            out[1:1] = home_mine  # right after the first woodcutter
            mines = mines[: room - 1]
        elif home_mine:
            mines = home_mine + mines[: room - 1]  # after the sawmill next door
        out.extend(mines[:1])
        if D.QUARRY not in own and sites[D.ROCK] and S.QUARRY_EARLY:
            out.append((sites[D.ROCK][0], D.QUARRY))
        elif long and S.CLAY and D.QUARRY not in own and not sites[D.ROCK]:
            self._plan_clay(state, out, own, sites)
        out.extend(mines[1:2])
        if raft_site in woods:  # the raft factory's shore site
            woods.remove(raft_site)
        if long:  # one woodcutter feeds a sawmill (2 boards a turn): woods host industry
            woods = woods[: max(0, S.LONG_WOODCUTTERS - own.count(D.WOODCUTTER))]
        out.extend((q, D.WOODCUTTER) for q in woods)
        out.extend(mines[2:])
        if D.QUARRY not in own and sites[D.ROCK] and not S.QUARRY_EARLY:
            out.append((sites[D.ROCK][0], D.QUARRY))
        if raft_site is not None:
            out.append((raft_site, D.RAFT_FACTORY))
        if raft_site is not None or D.RAFT_FACTORY in own or self._rafts(state):
            out.extend((q, D.MINE) for q in islands)
        self._plan_industry(state, out, own, sites)
        made = {D.BUILDINGS[k].output for k in own}
        here = state.presence(self.seat)
        counts = state.pool(home, here.get(home, []))
        for t in state.trans.values():  # cargo already on its way counts too
            if t.owner == self.seat and t.place != home:
                for g in t.cargo:
                    counts[g & D.GOOD_MASK] += 1
        kept = []
        for site, kind in out:
            lying = state.pool(site, []) if S.SITE_GOODS and site != home else [0] * D.NUM_GOODS
            cost = D.BUILDINGS[kind].cost
            if all(counts[g] + lying[g] >= n or g in made for g, n in cost):
                kept.append((site, kind))
        return kept

    def _plan_clay(
        self,
        state: RBState,
        out: list[tuple[int, int]],
        own: list[int],
        sites: dict[str, list[int]],
    ) -> None:
        """Append (in place) a clay pit on a shore hex next to the home and a stone
        factory next to it (1 clay makes 2 stone), the stone source of a home without
        rock nearby; nothing when no shore hex is free."""
        w = state.world
        home = state.homes[self.seat]
        hh = w.place_hex[home]
        taken = {q for q, _kind in out} | set(sites[D.MOUNTAIN])
        if D.CLAY_PIT not in own:
            shore = []
            for q in neighbours(state, home):
                j = w.place_hex[q]
                if j == hh or j in state.buildings or q in taken or not w.shore[j]:
                    continue
                terrain = w.hexes[j].terrain
                if terrain == D.DESERT and not state.irrigated:
                    continue
                rank = {D.PASTURE: 0, D.ROCK: 1, D.DESERT: 1, D.WOODS: 2}.get(terrain, 3)
                shore.append((rank, q))
            if not shore:
                return
            q = min(shore)[1]
            out.append((q, D.CLAY_PIT))
            taken.add(q)
        if D.STONE_FACTORY not in own:
            spots = self._spare_sites(state, taken, sites)
            if spots:
                out.append((spots[0], D.STONE_FACTORY))

    def _drop(self, state: RBState) -> bool:
        """True when a transporter leaves part of a building's cost on its site and
        goes home for the rest (``DROP_AND_RETURN``; ``LONG_DROP`` in a long game)."""
        if S.DROP_AND_RETURN:
            return True
        return S.LONG_DROP and self._long_plan(state)

    def _pacing(self, state: RBState) -> bool:
        """True when this seat paces itself (``PACE``, more than one seat) and the game
        counts as long (``_long_game``)."""
        return S.PACE and state.seats > 1 and self._long_game(state)

    def _long_plan(self, state: RBState) -> bool:
        """True when the game is long (``_pacing``) and at least one wonder phase has
        shown how the others buy bricks (``LONG_PLAN_FROM``)."""
        return state.turn > S.LONG_PLAN_FROM and self._pacing(state)

    def _far_sites(self, state: RBState, terrain: str) -> list[int]:
        """Areas of ``terrain`` without a building two off-road steps from the home."""
        w = state.world
        home = state.homes[self.seat]
        near = neighbours(state, home)
        out: list[int] = []
        for q in near:
            for r in neighbours(state, q):
                j = w.place_hex[r]
                if r == home or r in near or r in out or j in state.buildings:
                    continue
                if w.hexes[j].terrain == terrain:
                    out.append(r)
        return out

    def _plan_industry(
        self,
        state: RBState,
        out: list[tuple[int, int]],
        own: list[int],
        sites: dict[str, list[int]],
    ) -> None:
        """Append (in place) the secondary buildings of the economy plan to ``out``:
        a mint and a coal burner once a mine stands or is planned, a papermill for one
        research point while the two starting geese are kept."""
        kinds = {kind for _q, kind in out}
        wanted: list[int] = []
        left = self._turns_left(state)
        boards = D.SAWMILL in own or not S.INDUSTRY_NEEDS_SAWMILL
        long = S.LONG_INDUSTRY and self._long_plan(state)
        if (S.INDUSTRY or long) and boards and D.MINE in own and left >= S.INDUSTRY_TURNS:
            wanted += [k for k in (D.MINT, D.COAL_BURNER) if k not in own]
        mine_to_come = any(k == D.MINE for _q, k in out) or not S.PAPER_NEEDS_MINE
        stone = D.QUARRY in own or D.STONE_FACTORY in own  # the mines need the rest
        shafts = long and self._shafts(state) and D.MINE in own
        if (
            (S.PAPER or (long and (stone or shafts)))
            and (mine_to_come or shafts)
            and left >= S.PAPER_TURNS
            and self._research_pending(state)
            and D.PAPERMILL not in own
        ):
            wanted.insert(0 if shafts and S.SHAFT_PAPER_FIRST else len(wanted), D.PAPERMILL)
        if self._stock_plan(state, own, left):
            if D.PAPERMILL not in own and D.PAPERMILL not in wanted:
                wanted.append(D.PAPERMILL)
            if D.STOCK_EXCHANGE not in own:
                wanted.append(D.STOCK_EXCHANGE)
        if not wanted:
            return
        woodcutters = own.count(D.WOODCUTTER)
        taken = set()
        for q, k in out:  # woods beyond the first two woodcutters may host industry
            if k == D.WOODCUTTER:
                woodcutters += 1
                if woodcutters > (S.LONG_WOODCUTTERS if long else S.INDUSTRY_WOODCUTTERS):
                    continue
            taken.add(q)
        spots = self._spare_sites(state, taken, sites)
        at = min(S.INDUSTRY_AT, len(out))
        if shafts and S.SHAFT_SITES:
            self._place_shaft_industry(state, out, at, wanted, kinds, spots)
            return
        far: list[int] = []
        short = len(spots) < (2 if D.MINT in wanted else 1)
        if long and S.FAR_COAL and D.COAL_BURNER in wanted and short:
            far = self._far_spare_sites(state)  # the coal burner two steps out
        far_mint = long and S.FAR_MINT and not spots
        if far_mint and D.COAL_BURNER in wanted:
            far = self._far_spare_sites(state)
        both = D.MINT in wanted and D.COAL_BURNER in wanted
        if both and len(spots) + len(far[:1]) < 2 and not (far_mint and len(far) >= 2):
            wanted = [k for k in wanted if k not in (D.MINT, D.COAL_BURNER)]  # no fuel
        for kind in wanted:
            if kind in kinds:
                continue
            if kind == D.COAL_BURNER and far:
                out.insert(at, (far.pop(0), kind))
            elif spots:
                out.insert(at, (spots.pop(0), kind))
            elif kind == D.MINT and far_mint and far:
                out.insert(at, (far.pop(0), kind))
            elif (kind == D.PAPERMILL and S.FAR_PAPER and (shafts or S.STOCK)) or (
                kind == D.STOCK_EXCHANGE
            ):
                used = {q for q, _k in out}
                spare = [q for q in self._far_spare_sites(state) if q not in used]
                if not spare:
                    continue
                out.insert(at, (spare[0], kind))
            else:
                continue
            at += 1

    def _place_shaft_industry(
        self,
        state: RBState,
        out: list[tuple[int, int]],
        at: int,
        wanted: list[int],
        kinds: set[int],
        spots: list[int],
    ) -> None:
        """Insert (in place, at ``at``) the papermill, coal burner and mint of a seat that
        plays for new shafts, built in that order: the research point first, then the
        fuel of the shafts and the mint.  Free sites next to the home go to the mint
        first (its gold stays near home), then the papermill and the coal burner, which
        may also stand two steps out (boards are carried there, paper and fuel fetched
        back); no mint without a coal burner."""
        far = self._far_spare_sites(state) if S.FAR_COAL else []
        where: dict[int, int] = {}
        for kind in S.SHAFT_NEAR:
            if kind not in wanted or kind in kinds:
                continue
            if spots:
                where[kind] = spots.pop(0)
            elif kind != D.MINT and far:
                where[kind] = far.pop(0)
        own = {b[0] for b in state.buildings.values() if b[2] == self.seat}
        if D.MINT in where and D.COAL_BURNER not in where and D.COAL_BURNER not in own:
            del where[D.MINT]  # no fuel for it
        for kind in S.SHAFT_ORDER:
            if kind in where:
                out.insert(at, (where[kind], kind))
                at += 1

    def _stock_plan(self, state: RBState, own: list[int], left: float) -> bool:
        """True when a stock exchange is planned (``STOCK``, a long game): our mint stands,
        coins are made or on hand, and at least ``STOCK_TURNS`` turns are left for the
        stock exchange, the paper and a stock to be carried home."""
        if not S.STOCK or not self._long_plan(state) or D.MINT not in own or left < S.STOCK_TURNS:
            return False
        if D.COAL_BURNER not in own:
            return False
        coins = sum(
            1
            for t in state.trans.values()
            if t.owner == self.seat
            for g in t.cargo
            if g & D.GOOD_MASK == D.COINS
        )
        home = state.homes[self.seat]
        coins += state.pool(home, [])[D.COINS]
        return coins >= S.STOCK_COINS

    def _paper_wanted(self, state: RBState, avail: list[int]) -> bool:
        """True when our stock exchange wants a paper (``avail``: goods at home): it
        stands, and 2 coins are at home or lying on its site, and no paper is at home."""
        if not S.STOCK or avail[D.PAPER]:
            return False
        for b in state.buildings.values():
            if b[0] == D.STOCK_EXCHANGE and b[2] == self.seat:
                lying = state.pool(b[1], [])
                return avail[D.COINS] + lying[D.COINS] >= 2 and not lying[D.PAPER]
        return False

    def _far_spare_sites(self, state: RBState) -> list[int]:
        """Land areas two off-road steps from the home without a building, for a
        secondary building: pastures first, then rock and woods."""
        out: list[int] = []
        for terrain in (D.PASTURE, D.ROCK, D.WOODS):
            out += self._far_sites(state, terrain)
        return out

    def _research_pending(self, state: RBState) -> bool:
        """True while the seat has not researched yet (the two starting geese buy one
        point together with a paper)."""
        return not state.research[self.seat]

    def _feed(self, state: RBState) -> tuple[int, list[int]] | None:
        """(site, input set) of one of our secondary buildings next to the home whose
        inputs lie at home and are not kept for something else, or None."""
        w = state.world
        home = state.homes[self.seat]
        here = state.presence(self.seat)
        avail = state.pool(home, here.get(home, []))
        reserve = self._reserve(state)
        near = set(neighbours(state, home))
        best: tuple[int, tuple[int, list[int]]] | None = None
        for b in state.buildings.values():
            kind, place, owner, _used = b
            if owner != self.seat or kind not in S.FEEDS:
                continue
            far_ok = kind == D.COAL_BURNER and S.FAR_COAL
            far_paper = kind == D.PAPERMILL and (S.SHAFT_SITES or S.FAR_PAPER)
            far_ok = far_ok or (far_paper and self._shafts(state))
            far_ok = far_ok or (kind == D.MINT and S.FAR_MINT) or kind == D.STOCK_EXCHANGE
            if place not in near and not far_ok:
                continue
            if w.place_hex[place] == w.place_hex[home]:
                continue
            if any(t.owner == self.seat and t.place == place for t in state.trans.values()):
                continue  # someone is already there
            wanted = self._input_need(state, kind, place, avail)
            if wanted is None:
                continue
            rank, need = wanted
            enough = all(
                avail[g] - (reserve[g] if g == D.BOARD else 0) >= need[g]
                for g in range(D.NUM_GOODS)
            )
            if enough and (best is None or rank < best[0]):
                best = (rank, (place, need))
        return best[1] if best is not None else None

    def _input_need(
        self, state: RBState, kind: int, place: int, avail: list[int]
    ) -> tuple[int, list[int]] | None:
        """(rank, goods) still to bring to our secondary building ``kind`` at ``place``
        for its next input set (``avail``: goods at home), or None when it needs none;
        lower ranks are fed first."""
        need = [0] * D.NUM_GOODS
        lying = state.pool(place, [])  # in drop mode a set is completed on the site
        if kind == D.MINT:
            if self._turns_left(state) < S.MINT_TURNS:
                return None  # the coin would not be home in time
            need[D.GOLD], need[D.FUEL] = 2 - min(2, lying[D.GOLD]), 1 - min(1, lying[D.FUEL])
            rank = 0
        elif kind == D.STOCK_EXCHANGE:
            if self._turns_left(state) < S.STOCK_FEED_TURNS:
                return None  # the stock would not be home in time
            coins = 2 - min(2, lying[D.COINS])
            if avail[D.COINS] < coins:
                return None  # a set is carried only when complete (coins are worth 40)
            need[D.COINS], need[D.PAPER] = coins, 1 - min(1, lying[D.PAPER])
            rank = 0
        elif kind == D.STONE_FACTORY:
            if avail[D.CLAY] < 1:
                return None
            need[D.CLAY] = min(2, avail[D.CLAY])
            rank = 0
        elif kind == D.COAL_BURNER:
            gold = avail[D.GOLD] + self._gold_coming(state)
            shafts = self._shaft_fuel(state)
            if avail[D.FUEL] * 2 >= (gold if gold >= 2 else 0) + 2 * shafts or lying[D.FUEL]:
                return None
            need[D.BOARD] = max(0, 2 - lying[D.BOARD] - lying[D.TRUNK])
            rank = 1
        else:
            research = self._research_pending(state) or self._paper_wanted(state, avail)
            if not research or avail[D.PAPER] or lying[D.PAPER]:
                return None
            need[D.BOARD] = max(0, 2 - lying[D.BOARD] - lying[D.TRUNK])
            rank = 2
        return (rank, need) if any(need) else None

    def _wants_output(self, state: RBState, kind: int) -> bool:
        """True when our secondary building ``kind`` should process the goods of our
        transporters there: paper only while research is pending and none is at home,
        fuel only while gold waits for it (boards passing on their way to a building
        site are not made into paper)."""
        if kind == D.PAPERMILL:
            home = state.homes[self.seat]
            at_home = state.pool(home, state.presence(self.seat).get(home, []))
            wanted = self._research_pending(state) or self._paper_wanted(state, at_home)
            return wanted and not at_home[D.PAPER]
        if kind == D.COAL_BURNER:
            home = state.homes[self.seat]
            at_home = state.pool(home, state.presence(self.seat).get(home, []))
            gold = at_home[D.GOLD] + self._gold_coming(state)
            return at_home[D.FUEL] * 2 < gold + 2 * self._shaft_fuel(state)
        return True

    def _shaft_fuel(self, state: RBState) -> int:
        """Fuel wanted for new shafts (``SHAFT_FUEL``): one per dry mine of ours once
        new shafts are researched."""
        return len(self._dry_mines(state)) if S.SHAFT_FUEL else 0

    def _gold_coming(self, state: RBState) -> int:
        """Gold of ours away from home: on our transporters or loose at our mines."""
        n = 0
        home = state.homes[self.seat]
        for t in state.trans.values():
            if t.owner == self.seat and t.place != home:
                n += sum(1 for g in t.cargo if g & D.GOOD_MASK == D.GOLD)
        for b in state.buildings.values():
            if b[0] in (D.MINE, D.MINT) and b[2] == self.seat and b[1] != home:
                n += sum(1 for g in state.piles.get(b[1], ()) if g & D.GOOD_MASK == D.GOLD)
        return n

    def _turns_left(self, state: RBState) -> float:
        """A rough guess of the turns still to play."""
        if state.seats == 1:
            return state.options.solo_turns - state.turn
        left = D.END_MARK[state.seats] - len(state.wonder)
        if S.PACE and self._long_game(state):
            pace = D.END_MARK[state.seats] / S.SCHEDULE_TURNS
        else:
            pace = max(len(state.wonder) / max(state.turn, 1), 1.0 + state.seats)
        return min(state.neutral_left, left / pace)

    def _wonder_before(self, state: RBState) -> int:
        """Bricks that stood when this turn's wonder phase began (each turn's wonder
        phase ends with the neutral brick, so the bricks after the last neutral one
        were bought this turn)."""
        wonder = state.wonder
        for i in range(len(wonder) - 1, -1, -1):
            if wonder[i] < 0:
                return i + 1
        return 0

    def _long_game(self, state: RBState) -> bool:
        """True when the wonder has filled slowly enough in the turns played so far
        for the game to last ``LONG_GAME`` turns or more at that pace (every player's
        bricks and the neutral ones; 69 bricks end a 4-seat game)."""
        done = max(0, state.turn - 1)
        if done == 0:
            return True
        pace = D.END_MARK[state.seats] / S.LONG_GAME
        return self._wonder_before(state) <= done * pace + S.LONG_SLACK

    def _behind_schedule(self, state: RBState) -> bool:
        """True while one more brick keeps the wonder (with this turn's neutral brick)
        within a game of ``SCHEDULE_TURNS`` turns."""
        due = D.END_MARK[state.seats] * state.turn / S.SCHEDULE_TURNS
        if S.FAIR_SHARE:  # no more bricks than the player with the fewest
            mine = state.wonder.count(self.seat)
            if any(mine > state.wonder.count(s) for s in range(state.seats)):
                return False
        return len(state.wonder) + 2 <= due + 0.5

    def _last_turn(self, state: RBState, margin: int = 0) -> bool:
        """True when the game may end in this turn's wonder phase (``margin`` bricks of
        slack on top of what every player could buy with the goods it holds)."""
        if state.seats == 1:
            return state.turn >= state.options.solo_turns
        if state.neutral_left <= 1:
            return True
        if S.PACE and S.LAST_BY_SCHEDULE and self._long_game(state):
            # everyone paces: the game ends when the schedule (or one last spending
            # turn of every player) fills the wonder
            left = D.END_MARK[state.seats] - self._wonder_before(state)
            return left <= D.END_MARK[state.seats] / S.SCHEDULE_TURNS * S.FINAL_TURNS + margin
        bricks = len(state.wonder) + 1 + margin
        for seat in range(state.seats):
            goods = 0
            for t in state.trans.values():
                if t.owner == seat:
                    goods += len(t.cargo)
            goods += sum(state.pool(state.homes[seat], [])) if state.homes[seat] >= 0 else 0
            k = 0
            while brick_cost(k + 1, len(state.wonder)) <= goods:
                k += 1
            bricks += k
        return bricks >= D.END_MARK[state.seats]

    def _reserve(self, state: RBState) -> list[int]:
        """Goods at home kept back from the wonder for the next producers."""
        need = [0] * D.NUM_GOODS
        if self._turns_left(state) <= S.LATE_TURNS:
            return need
        targets = self._targets(state)
        for _place, kind in targets[: S.RESERVE_TARGETS]:
            for g, n in D.BUILDINGS[kind].cost:
                need[g] += n
        for place, kind in targets[S.RESERVE_TARGETS :]:
            if kind == D.RAFT_FACTORY or (kind == D.MINE and self._by_water(state, place)):
                for g, n in D.BUILDINGS[kind].cost:  # the raft plan's stone is scarce
                    need[g] += n
        return need

    def _shafts(self, state: RBState) -> bool:
        """True when this seat plays for new shafts (``SHAFTS``, a long game)."""
        return S.SHAFTS and self._pacing(state)
