"""Rounds and tournaments: pairing (round-robin, Swiss, groups, co-op teams), points per game
type, tie-breaks, standings over real bot-played matches, the next-round command and its refusals."""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from classrooms import pairing, services, standings
from classrooms.models import ClassSession, Participant, Round
from classrooms.pairing import Player, circle_rounds, pair_round
from classrooms.standings import game_points, session_standings
from games.errors import AppError
from games.models import Match
from tests.support.rounds import play_out

H = Fraction(1, 2)


# --------------------------------------------------------------------------- pairing (pure)


def _play_rounds(ids, rounds, size=2, cooperative=False):
    """Pair ``rounds`` rounds, everyone's history updated as if every game was drawn."""
    opponents = {i: set() for i in ids}
    byes = dict.fromkeys(ids, 0)
    first = dict.fromkeys(ids, 0)
    partner = {}
    history = []
    for r in range(1, rounds + 1):
        players = [Player(i, place=k, byes=byes[i], first_seats=first[i], opponents=frozenset(opponents[i]),
                          partner=partner.get(i)) for k, i in enumerate(ids)]
        paired = pair_round(players, size, r, cooperative=cooperative)
        history.append(paired)
        seen = [i for t in paired.tables for i in t]
        assert sorted(seen) == sorted(ids), "everyone plays, once"
        for t in paired.tables:
            assert 1 <= len(t) <= size
            first[t[0]] += 1
            if len(t) < size:
                for i in t:
                    byes[i] += 1
            for a, b in itertools.permutations(t, 2):
                opponents[a].add(b)
            if len(t) == 2:
                partner[t[0]], partner[t[1]] = t[1], t[0]
    return history, opponents, byes, first


@pytest.mark.parametrize("n", [2, 4, 6, 8])
def test_round_robin_even_everyone_meets_everyone_once_in_n_minus_1_rounds(n):
    ids = list(range(10, 10 + n))
    history, opponents, byes, first = _play_rounds(ids, n - 1)
    assert {p.method for p in history} == {"round-robin"}
    pairs = [frozenset(t) for p in history for t in p.tables]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    assert all(opponents[i] == set(ids) - {i} for i in ids)
    assert set(byes.values()) == {0}
    if n > 2:  # first seats alternate: nobody sits first every round, nobody never
        assert max(first.values()) - min(first.values()) <= 1


@pytest.mark.parametrize("n", [3, 5, 7])
def test_round_robin_odd_gives_each_student_one_bye_over_n_rounds(n):
    ids = list(range(n))
    history, opponents, byes, _first = _play_rounds(ids, n)
    assert all(opponents[i] == set(ids) - {i} for i in ids)
    assert all(b == 1 for b in byes.values()), "byes go to different students"
    pairs = [frozenset(t) for p in history for t in p.tables if len(t) == 2]
    assert len(pairs) == len(set(pairs))


def test_circle_method_shape():
    rounds = circle_rounds([1, 2, 3, 4])
    assert len(rounds) == 3 and all(len(r) == 2 for r in rounds)


def test_more_than_eight_students_play_swiss_without_rematches_and_spread_byes():
    ids = list(range(11))
    history, _opponents, byes, _first = _play_rounds(ids, 5)
    assert {p.method for p in history} == {"swiss"}
    pairs = [frozenset(t) for p in history for t in p.tables if len(t) == 2]
    assert len(pairs) == len(set(pairs)), "no rematch while one can be avoided"
    assert max(byes.values()) == 1 and sum(byes.values()) == 5, "five rounds, five different byes"


def test_swiss_pairs_by_points_group_top_with_top():
    players = [Player(i, place=i) for i in range(10)]
    tables = pair_round(players, 2, 1).tables
    assert sorted(map(sorted, tables)) == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]


def test_swiss_avoids_a_rematch_by_moving_down_one():
    players = [Player(0, place=0, opponents=frozenset({1})), Player(1, place=1, opponents=frozenset({0}))] + \
              [Player(i, place=i) for i in range(2, 10)]
    tables = [sorted(t) for t in pair_round(players, 2, 4).tables]
    assert [0, 1] not in tables and [0, 2] in tables


def test_swiss_accepts_a_rematch_only_when_every_pairing_repeats_one():
    everyone = frozenset(range(10))
    players = [Player(i, place=i, opponents=everyone - {i}) for i in range(10)]
    tables = pair_round(players, 2, 10).tables
    assert sorted(i for t in tables for i in t) == list(range(10))


@pytest.mark.parametrize("n,size,expected", [(9, 3, [3, 3, 3]), (10, 3, [3, 3, 3, 1]), (11, 4, [4, 4, 3]),
                                             (12, 5, [5, 5, 2]), (4, 5, [4])])
def test_poker_tables_group_by_points_into_tables_of_their_size(n, size, expected):
    players = [Player(i, place=i) for i in range(n)]
    paired = pair_round(players, size, 1)
    assert paired.method == "swiss"
    assert [len(t) for t in paired.tables] == expected
    if n >= size:
        assert set(paired.tables[0]) == set(range(size)), "the leaders sit together"


def test_poker_groups_spread_byes_and_avoid_meeting_the_same_students():
    ids = list(range(10))
    history, opponents, byes, _first = _play_rounds(ids, 4, size=3)
    assert max(byes.values()) == 1, "the leftover student is a different one each round"
    assert all(len(opponents[i]) >= 4 for i in ids)


def test_coop_teams_are_kept_and_newcomers_teamed_with_a_bot_bye_for_the_odd_one():
    players = [Player(1, partner=2), Player(2, partner=1), Player(3, partner=4), Player(4, partner=3)]
    paired = pair_round(players, 2, 2, cooperative=True)
    assert paired.method == "teams"
    assert sorted(map(sorted, paired.tables)) == [[1, 2], [3, 4]]
    # 4 was removed, 5 and 6 joined late: 3 and 5 team up, the newest plays with a bot
    players = [Player(1, partner=2), Player(2, partner=1), Player(3, partner=4), Player(5), Player(6)]
    tables = sorted(map(sorted, pair_round(players, 2, 3, cooperative=True).tables))
    assert [1, 2] in tables and [3, 5] in tables and [6] in tables


# --------------------------------------------------------------------------- points (pure)


def test_points_two_players_win_draw_loss():
    assert game_points({"scores": [3, 1], "winners": [0]}, 2) == [1, 0]
    assert game_points({"scores": [1, 3], "winners": [1]}, 2) == [0, 1]
    assert game_points({"scores": [1, 1], "winners": []}, 2) == [H, H]
    assert game_points({"scores": [5, 5], "winners": [0, 1]}, 2) == [H, H]  # poker heads-up split


def test_points_poker_share_of_opponents_outscored_with_ties_half():
    assert game_points({"scores": [30, 10, 20], "winners": [0]}, 3) == [1, 0, H]
    points = game_points({"scores": [10, 10, 0, 40], "winners": [3]}, 4)
    assert points == [Fraction(1, 2), Fraction(1, 2), 0, 1]
    assert all(0 <= p <= 1 for p in game_points({"scores": [7, 7, 7, 7, 7], "winners": [0, 1, 2, 3, 4]}, 5))
    assert game_points({"scores": [7, 7, 7, 7, 7], "winners": [0, 1, 2, 3, 4]}, 5) == [H] * 5


def test_points_cooperative_win_or_loss_together():
    assert game_points({"scores": [8, 8], "winners": [0, 1], "result": "won"}, 2, cooperative=True) == [1, 1]
    assert game_points({"scores": [3, 3], "winners": [], "result": "lost"}, 2, cooperative=True) == [0, 0]


def test_points_qtris_teams_by_side():
    # four seats, two sides (scores per side): the winning side's seats 1
    assert game_points({"scores": [2, 1], "winners": [0, 2]}, 4) == [1, 0, 1, 0]


def test_tie_breaks_buchholz_then_sonneborn_berger_order_equal_points():
    recs = {i: standings.Record(i, n) for i, n in enumerate("ABCD")}

    def game(a, b, pa):
        recs[a].points += pa
        recs[b].points += 1 - pa
        recs[a].met.append((b, pa))
        recs[b].met.append((a, 1 - pa))
        for x, p in ((a, pa), (b, 1 - pa)):
            recs[x].played += 1
            recs[x].won += p == 1

    game(0, 1, 1)  # A beats B
    game(2, 3, 1)  # C beats D
    game(0, 2, 0)  # C beats A
    game(1, 3, 1)  # B beats D
    # A and B have 1 point each: A met B (1) and C (2) -> Buchholz 3; B met A (1) and D (0) -> 1
    rows = standings.ranked_students(recs)
    assert [r["name"] for r in rows] == ["C", "A", "B", "D"]
    assert rows[1]["tiebreaks"]["buchholz"] == 3 and rows[2]["tiebreaks"]["buchholz"] == 1
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    # same points and Buchholz: Sonneborn-Berger (whom the points came from) decides
    recs = {i: standings.Record(i, n) for i, n in enumerate("ABCD")}
    recs[0].points = recs[1].points = Fraction(1)
    recs[2].points, recs[3].points = Fraction(2), Fraction(0)
    recs[0].met = [(2, Fraction(1)), (3, Fraction(0))]  # beat the leader
    recs[1].met = [(2, Fraction(0)), (3, Fraction(1))]  # beat the last
    rows = standings.ranked_students(recs)
    assert [r["name"] for r in rows][1:3] == ["A", "B"]
    assert rows[1]["tiebreaks"]["sonneborn_berger"] == 2 and rows[2]["tiebreaks"]["sonneborn_berger"] == 0
    # all equal: a shared place
    recs = {i: standings.Record(i, n) for i, n in enumerate("AB")}
    assert [r["place"] for r in standings.ranked_students(recs)] == [1, 1]


def test_buchholz_decides_before_sonneborn_berger_when_they_disagree():
    recs = {i: standings.Record(i, n) for i, n in enumerate("ABCDEF")}
    points = {0: 1, 1: 1, 2: 2, 3: 0, 4: 1, 5: 0}
    for pid, p in points.items():
        recs[pid].points = Fraction(p)
    # (the student met, the result against them): A met C (2 points) and D (0), B met E (1) and F (0)
    recs[0].met = [(2, Fraction(0)), (3, Fraction(1))]
    recs[1].met = [(4, Fraction(1)), (5, Fraction(0))]
    rows = {r["name"]: r for r in standings.ranked_students(recs)}
    a, b = rows["A"]["tiebreaks"], rows["B"]["tiebreaks"]
    assert (a["buchholz"], b["buchholz"]) == (2, 1)  # A met the stronger field...
    assert (a["sonneborn_berger"], b["sonneborn_berger"]) == (0, 1)  # ...B beat the stronger one
    assert rows["A"]["place"] < rows["B"]["place"]  # Buchholz comes first


# --------------------------------------------------------------------------- real sessions


def _session(classroom, game="quantum-tictactoe", names=("Ada", "Bo", "Cy", "Di"), **options):
    session = services.open_session(classroom, game, **options)
    for name in names:
        Participant.objects.create(session=session, display_name=name)
    return session


def _play_round(session, number):
    rnd = Round.objects.get(session=session, number=number)
    for table in rnd.tables.all():
        play_out(table.match_id, seed=table.number)


# committed transactions: the match state cache is written on commit (otherwise every move
# replays the whole log) and the announcements go out
pytestmark = pytest.mark.django_db(transaction=True)


def test_two_rounds_of_tictactoe_repair_and_standings_add_up(classroom):
    session = _session(classroom)
    first = services.next_round(session)
    session.refresh_from_db()
    assert session.format == ClassSession.Format.ROUNDS and first.number == 1 and first.method == "round-robin"
    assert first.tables.count() == 2
    assert set(Match.objects.filter(table__round=first).values_list("status", flat=True)) == {"playing"}
    with pytest.raises(AppError) as refused:
        services.next_round(session)
    assert refused.value.code == "round_playing" and "Table 1, Table 2" in refused.value.message
    _play_round(session, 1)
    second = services.next_round(session)
    assert second.number == 2
    met_first = {frozenset(s.participant_id for s in t.match.seats.all()) for t in first.tables.all()}
    met_second = {frozenset(s.participant_id for s in t.match.seats.all()) for t in second.tables.all()}
    assert not met_first & met_second, "re-paired: nobody meets the same student twice"
    _play_round(session, 2)
    table = session_standings(session)
    assert table["round"] == 2 and table["format"] == "rounds"
    rows = table["students"]
    assert len(rows) == 4 and all(r["played"] == 2 for r in rows)
    assert sum(r["points"] for r in rows) == 4.0, "each game gives out one point"
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    for r in rows:
        assert r["won"] + r["drawn"] + r["lost"] == 2 and r["points"] == r["won"] + r["drawn"] / 2
    assert [t["round"] for t in table["tables"]] == [1, 1, 2, 2]
    assert all(t["status"] == "finished" and all(s["points"] is not None for s in t["seats"]) for t in table["tables"])
    assert table["teams"] == [] and all(r["luck"] is None for r in rows)
    # the session report lists the same standings
    from django.test import Client

    browser = Client()
    browser.force_login(classroom.teacher)
    page = browser.get(f"/teacher/sessions/{session.pk}/report/").content.decode()
    assert 'id="report-standings"' in page
    assert all(f'<th scope="row">{r["name"]}</th>' in page for r in rows)


def test_a_bye_plays_a_bot_and_is_counted_then_goes_to_someone_else(classroom):
    session = _session(classroom, names=("Ada", "Bo", "Cy"))
    services.next_round(session)
    _play_round(session, 1)
    services.next_round(session)
    _play_round(session, 2)
    rows = session_standings(session)["students"]
    assert sorted(r["byes"] for r in rows) == [0, 1, 1]
    bot_tables = [t for t in session_standings(session)["tables"] if any(s["bot"] for s in t["seats"])]
    assert len(bot_tables) == 2


def test_removed_students_are_not_paired_and_late_joiners_enter_with_zero(classroom):
    session = _session(classroom)
    services.next_round(session)
    _play_round(session, 1)
    gone = session.participants.get(display_name="Di")
    services.remove_participant(session, gone.pk)
    late = Participant.objects.create(session=session, display_name="Eve")
    second = services.next_round(session)
    seated = {s.participant_id for t in second.tables.all() for s in t.match.seats.all() if s.participant_id}
    assert gone.pk not in seated and late.pk in seated
    rows = {r["name"]: r for r in session_standings(session)["students"]}
    assert "Di" not in rows and rows["Eve"]["points"] == 0 and rows["Eve"]["played"] == 0
    # removed in the middle of a game: the bot that takes the seat does not make it a bye
    victim = next(s for t in second.tables.all() for s in t.match.seats.all() if s.participant_id)
    opponent = next(s.participant_id for s in victim.match.seats.all() if s.pk != victim.pk)
    services.remove_participant(session, victim.participant_id)
    play_out(victim.match_id)
    rows = {r["participant"]: r for r in session_standings(session)["students"]}
    assert rows[opponent]["played"] == 2 and rows[opponent]["byes"] == 0


def test_poker_round_of_five_students_in_tables_of_three(classroom):
    session = _session(classroom, "quantum-poker", names=("Ada", "Bo", "Cy", "Di", "Ed"),
                       options={"table_size": 3})
    first = services.next_round(session)
    sizes = sorted(sum(1 for s in t.match.seats.all() if s.participant_id) for t in first.tables.all())
    assert sizes == [2, 3] and first.method == "swiss"
    _play_round(session, 1)
    table = session_standings(session)
    for t in table["tables"]:
        assert all(0 <= s["points"] <= 1 for s in t["seats"])
        assert sum(s["points"] for s in t["seats"]) == pytest.approx(1.5), "n(n-1)/2 pairwise results over n-1"
    assert all(r["played"] == 1 for r in table["students"])


def test_entanglion_teams_are_kept_and_ranked_by_components_then_turns(classroom):
    session = _session(classroom, "entanglion", names=("Ada", "Bo", "Cy", "Di"), variant="easy",
                       options={"detection": 9})  # near the end of the track: short games
    first = services.next_round(session)
    assert first.method == "teams"
    teams_first = {frozenset(s.participant_id for s in t.match.seats.all()) for t in first.tables.all()}
    _play_round(session, 1)
    second = services.next_round(session)
    teams_second = {frozenset(s.participant_id for s in t.match.seats.all()) for t in second.tables.all()}
    assert teams_first == teams_second, "teams play again together"
    _play_round(session, 2)
    teams = session_standings(session)["teams"]
    assert len(teams) == 2 and all(t["played"] == 2 for t in teams)
    keys = [(-t["components"], t["turns"]) for t in teams]
    assert keys == sorted(keys)
    assert teams[0]["place"] == 1
    rows = session_standings(session)["students"]
    for t in teams:  # partners share every result
        mine = [r for r in rows if r["participant"] in t["members"]]
        assert mine[0]["points"] == mine[1]["points"] == t["won"]


def test_qtris_luck_is_actual_minus_exact_expected_score(classroom):
    from games.engines import get_game
    from games.selectors import current_state

    session = _session(classroom, "qtris", names=("Ada", "Bo"))
    services.next_round(session)
    _play_round(session, 1)
    match = Match.objects.get(table__session=session)
    state = current_state(match)
    expected = get_game("qtris").analysis(state)["expected_scores"]
    rows = {r["participant"]: r for r in session_standings(session)["students"]}
    for seat in match.seats.all():
        side = seat.index % state["n_sides"]
        assert rows[seat.participant_id]["luck"] == pytest.approx(match.outcome["scores"][side] - expected[side],
                                                                  abs=1e-3)


def test_free_sessions_have_standings_too(classroom):
    session = _session(classroom, names=("Ada", "Bo"))
    services.auto_pair(session)
    services.start_all(session)
    assert session_standings(session)["students"][0]["played"] == 0
    play_out(session.tables.get().match_id)
    table = session_standings(session)
    assert table["format"] == "free" and table["round"] is None
    assert sorted(r["points"] for r in table["students"]) in ([0, 1], [0.5, 0.5])


def test_next_round_refused_for_ended_sessions_and_with_nobody(classroom):
    empty = services.open_session(classroom, "quantum-tictactoe")
    with pytest.raises(AppError) as refused:
        services.next_round(empty)
    assert refused.value.code == "nobody_to_pair"
    services.set_status(empty, ClassSession.Status.ENDED)
    with pytest.raises(AppError) as refused:
        services.next_round(empty)
    assert refused.value.code == "ended"


def test_pairing_module_is_pure():
    source = open(pairing.__file__).read()
    assert "django" not in source and "import classrooms" not in source


# --------------------------------------------------------------------------- the socket command


@pytest.mark.server
def test_next_round_over_the_socket_and_the_api_with_its_refusals(server, teacher):
    from tests.support.clients import Student, Teacher, receive, run_async
    from tests.support.tables import TEACHER

    boss = Teacher(server)
    boss.login(*TEACHER)
    session = boss.open_session("quantum-tictactoe")
    ada, bo = Student(server), Student(server)
    for student, name in ((ada, "Ada"), (bo, "Bo")):
        assert student.join(session["join_code"], name).status_code == 302
    path = f"/ws/sessions/{session['id']}/"

    async def scenario():
        desk = await boss.socket(path)
        lobby = await ada.socket(path)
        first = await receive(desk, "dashboard")
        assert first["rounds"] == {"format": "free", "round": None, "method": None, "method_name": None,
                                   "playing": [], "can_start": True}
        assert first["standings"]["format"] == "free"
        await receive(lobby, "lobby")
        # a student may not start a round
        await lobby.send(json.dumps({"type": "next_round"}))
        refused = await receive(lobby, "error")
        assert refused["code"] == "read_only"
        # bad messages: not JSON, an unknown type: refused in words, nothing changes
        for bad in ("next_round", '{"type": "next_rounds"}', "[1, 2]"):
            await desk.send(bad)
            error = await receive(desk, "error")
            assert error["code"] == "bad_message" and "next_round" in error["message"]
        await desk.send(json.dumps({"type": "next_round"}))
        started = await receive(desk, "dashboard", where=lambda m: m["rounds"]["round"] == 1)
        assert started["rounds"]["playing"] == [1] and not started["rounds"]["can_start"]
        assert started["rounds"]["method"] == "round-robin"
        assert started["tables"][0]["round"] == 1 and started["tables"][0]["status"] == "playing"
        moved = await receive(lobby, "lobby", where=lambda m: m["match"] is not None)
        assert moved["match_status"] == "playing" and moved["play_url"].startswith("/matches/")
        assert moved["standing"] == {"place": 1, "of": 2, "points": 0.0, "played": 0, "round": 1}
        # the table still plays: refused, naming it
        await desk.send(json.dumps({"type": "next_round"}))
        error = await receive(desk, "error")
        assert error["code"] == "round_playing" and "Table 1" in error["message"]
        for ws in (desk, lobby):
            await ws.close()
        return moved["match"]

    match_id = run_async(scenario())
    assert Round.objects.filter(session_id=session["id"]).count() == 1
    refused = boss.api("POST", f"/api/sessions/{session['id']}/next-round/")
    assert refused.status_code == 400 and "Table 1" in refused.text
    assert ada.api("POST", f"/api/sessions/{session['id']}/next-round/").status_code in (401, 403)
    play_out(match_id)
    second = boss.api("POST", f"/api/sessions/{session['id']}/next-round/")
    assert second.status_code == 200, second.text
    assert second.json()["rounds"]["round"] == 2 and second.json()["standings"]["round"] == 2
    table = boss.api("GET", f"/api/sessions/{session['id']}/standings/").json()
    assert [t["round"] for t in table["tables"]] == [1, 2]
    assert ada.api("GET", f"/api/sessions/{session['id']}/standings/").status_code in (401, 403, 404)


# --------------------------------------------------------------------------- no leak


STANDINGS_KEYS = {"format", "round", "students", "tables", "teams", "participant", "name", "place", "points",
                  "played", "won", "drawn", "lost", "byes", "tiebreaks", "buchholz", "sonneborn_berger", "luck",
                  "number", "status", "seats", "bot", "winners", "members", "names", "bots", "rank",
                  "components", "turns"}


def _keys(obj) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def test_standings_and_lobby_standing_hold_no_hidden_card_or_private_view(classroom):
    """Poker tables of three, one hand finished and one in play: the standings (projector,
    dashboard, API) are names, points and public results only, and do not change with the hidden
    cards of the table still playing; a student's lobby gets their own place and points only."""
    from tests.test_poker_platform import SECRET_KEYS

    session = _session(classroom, "quantum-poker", names=("Ada", "Bo", "Cy", "Di", "Ed"),
                       options={"table_size": 3, "hands": 1, "community_cards": 8}, variant="classic")
    first = services.next_round(session)
    done, playing = list(first.tables.order_by("number"))
    play_out(done.match_id)
    before = session_standings(session)
    assert _keys(before) <= STANDINGS_KEYS, _keys(before) - STANDINGS_KEYS
    assert not _keys(before) & (SECRET_KEYS | {"hand", "hands", "qubits", "value", "view", "outcome", "cards"})
    assert all(s["points"] is None for t in before["tables"] if t["status"] == "playing" for s in t["seats"])
    # the table in play with other hidden cards (another deal): the same standings, to the byte
    match = Match.objects.get(pk=playing.match_id)
    Match.objects.filter(pk=match.pk).update(seed=match.seed + 1)
    assert json.dumps(session_standings(session), sort_keys=True) == json.dumps(before, sort_keys=True)
    from classrooms import selectors

    dashboard = selectors.dashboard_payload(session)
    assert dashboard["standings"] == before
    for student in session.participants.all():
        lobby = selectors.lobby_payload(session, student)
        mine = lobby["standing"]
        assert set(mine) == {"place", "of", "points", "played", "round"}
        others = [p.display_name for p in session.participants.exclude(pk=student.pk)]
        text = json.dumps(lobby)
        assert not any(f'"{name}"' in text for name in others), "no other student's line in a lobby"


def test_cached_standings_follow_every_change_of_the_session(classroom):
    from classrooms.standings import cached_standings

    session = _session(classroom, names=("Ada", "Bo", "Cy"))
    assert cached_standings(session) == session_standings(session)
    first = services.next_round(session)
    started = cached_standings(session)
    assert started["round"] == 1 and {t["status"] for t in started["tables"]} == {"playing"}
    play_out(next(t for t in first.tables.all() if not any(s.bot for s in t.match.seats.all())).match_id)
    assert cached_standings(session) == session_standings(session) != started
    late = Participant.objects.create(session=session, display_name="Di")
    assert "Di" in [r["name"] for r in cached_standings(session)["students"]]
    services.remove_participant(session, late.pk)
    assert "Di" not in [r["name"] for r in cached_standings(session)["students"]]


def test_standings_cached_from_tables_read_before_a_finish_are_not_served_after_it(classroom):
    """The dashboard computes the standings from the tables it read for its rows: a table that
    finished after that read, before the cache key was taken, must not leave those standings
    cached as the finished session's (the dashboard then showed a finished game as unplayed until
    the next change)."""
    from classrooms.standings import cached_standings

    session = _session(classroom, names=("Ada", "Bo", "Cy", "Di"))
    first = services.next_round(session)
    read_before = session.seated_tables()
    play_out(first.tables.order_by("number").first().match_id)  # meanwhile, a table finishes
    stale = cached_standings(session, read_before)
    assert all(row["played"] == 0 for row in stale["students"])  # (what those rows say)
    fresh = cached_standings(session, session.seated_tables())
    assert fresh == session_standings(session)
    assert sorted(row["played"] for row in fresh["students"]) == [0, 0, 1, 1]
    assert cached_standings(session) == session_standings(session)
