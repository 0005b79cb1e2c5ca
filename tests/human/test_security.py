"""The human seat's page server over real HTTP: loopback only, the token, no
cross-origin access; stale and illegal choices refused and explained; the sandbox
exception is the ``human`` seat's alone (test_sandbox_exception.py)."""

from __future__ import annotations

import http.client
import json
import random
import socket
from pathlib import Path
from typing import Any

import pytest

from referee.match.replay import replay
from tests.human.conftest import HumanMatch, click_to_the_end, start_match

ROOT = Path(__file__).resolve().parents[2]


def request(
    match: HumanMatch,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One real HTTP request to the seat's server: ``(status, headers, body)``."""
    port = int(match.base.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@pytest.fixture
def solo(tmp_path: Path, human_match: list[HumanMatch]) -> HumanMatch:
    """A 1-seat Roads & Boats match whose only seat is the human seat."""
    match = start_match(
        tmp_path, "roads-and-boats", ["human"], seed=3, extra=["--option", "solo_turns=1"]
    )
    human_match.append(match)
    return match


def test_the_token_host_and_origin_rules(solo: HumanMatch) -> None:
    """Without the token, with a wrong one, under another Host name, from another
    origin or site: 403, and no response ever grants CORS."""
    t = solo.token
    status, headers, body = request(solo, "GET", f"/?token={t}")
    assert status == 200 and b"RefereeHuman" in body
    assert "Access-Control-Allow-Origin" not in headers
    assert headers["Cache-Control"] == "no-store"
    for path, extra in [
        ("/", {}),
        ("/?token=wrong", {}),
        (f"/?token={t[:-1]}", {}),
        ("/state", {}),
        ("/state", {"X-Referee-Token": "nope"}),
        (f"/?token={t}", {"Host": "evil.example"}),
        (f"/?token={t}", {"Host": f"evil.example:{solo.base.rsplit(':', 1)[1]}"}),
        (f"/state?token={t}", {"Origin": "http://evil.example"}),
        (f"/state?token={t}", {"Origin": "null"}),
        (f"/state?token={t}", {"Sec-Fetch-Site": "cross-site"}),
    ]:
        status, headers, body = request(solo, "GET", path, extra)
        assert status == 403, (path, extra, body)
        assert "Access-Control-Allow-Origin" not in headers
        assert b"forbidden" in body
    # a same-origin fetch passes
    status, _, body = request(
        solo, "GET", "/state?since=-1", {"X-Referee-Token": t, "Origin": solo.base}
    )
    assert status == 200 and json.loads(body)["seat"] == 0
    # a CORS preflight is never granted; a cross-origin POST is refused
    status, headers, _ = request(
        solo,
        "OPTIONS",
        "/action",
        {"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert status == 403 and "Access-Control-Allow-Origin" not in headers
    status, _, _ = request(
        solo,
        "POST",
        f"/action?token={t}",
        {"Origin": "http://evil.example", "Content-Type": "application/json"},
        b'{"id": 1, "index": 0}',
    )
    assert status == 403
    # a form post (no preflight in browsers) is not JSON: refused
    status, _, _ = request(
        solo,
        "POST",
        f"/action?token={t}",
        {"Content-Type": "text/plain"},
        b'{"id": 1, "index": 0}',
    )
    assert status == 400


def test_the_server_listens_on_loopback_only(solo: HumanMatch) -> None:
    """Nothing answers on the machine's other addresses."""
    port = int(solo.base.rsplit(":", 1)[1])
    addresses = set()
    for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
        address = str(info[4][0])
        if not address.startswith("127."):
            addresses.add(address)
    if not addresses:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent for UDP connect
            addresses.add(probe.getsockname()[0])
        except OSError:
            pass
        finally:
            probe.close()
    addresses.discard("0.0.0.0")
    if not addresses:
        pytest.skip("this machine has no address but loopback")
    for address in addresses:
        with pytest.raises(OSError):
            socket.create_connection((address, port), timeout=2).close()


def test_stale_and_illegal_choices_are_refused_and_explained(
    browser: Any, solo: HumanMatch
) -> None:
    """The page offers exactly the legal actions; a choice for an old request id (a
    stale page) and an index outside the legal list are refused with a reason, shown
    on the page; the game then goes on and ends with verdict ok."""
    page = browser.new_page()
    page.goto(solo.url)
    page.wait_for_selector("#actions button.act:not([disabled])")
    first = int(page.evaluate("document.body.dataset.request"))
    buttons = page.locator("#actions button.act")
    indices = [
        int(buttons.nth(i).get_attribute("data-index") or -1) for i in range(buttons.count())
    ]
    legal = page.evaluate("RefereeHuman.state().request.legal.length")
    assert sorted(indices) == list(range(legal))
    # an index that is not legal: refused, explained, nothing sent
    page.evaluate(f"RefereeHuman.choose({first}, {legal})")
    page.wait_for_function("document.getElementById('notice').textContent.includes('Refused')")
    assert "not one of the" in page.inner_text("#notice")
    assert page.evaluate("document.body.dataset.request") == str(first)
    buttons.first.click()
    page.wait_for_function(
        "first => (document.body.dataset.request && document.body.dataset.request !== first) "
        "|| document.body.dataset.finished === '1'",
        arg=str(first),
    )
    if page.evaluate("document.body.dataset.finished") != "1":
        # the stale page: it answers request `first` again
        page.evaluate(f"RefereeHuman.choose({first}, 0)")
        page.wait_for_function("document.getElementById('notice').textContent.includes('Refused')")
        text = page.inner_text("#notice")
        assert f"request {first}" in text and "no longer open" in text
        status, _, body = request(
            solo,
            "POST",
            "/action",
            {"X-Referee-Token": solo.token, "Content-Type": "application/json"},
            json.dumps({"id": first, "index": 0}).encode(),
        )
        assert status == 409 and b"no longer open" in body
        click_to_the_end(page, random.Random(1))
    solo.finish()
    page.close()
    assert replay(solo.record).result.verdicts == ["ok"]
