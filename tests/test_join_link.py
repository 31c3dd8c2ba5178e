"""The join link and QR show an address a phone on the same network can open."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, RequestFactory

from classrooms import join_link as jl
from classrooms import services
from classrooms.models import Classroom
from core import lan
from core.qr import qr_svg

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("localhost", True), ("[::1]", True),
                                                ("127.0.1.1", True), ("192.168.1.20", False),
                                                ("quantum.school.example", False)])
def test_loopback_hosts_are_recognised(host, loopback):
    assert jl.is_loopback(host) is loopback


def _request(host: str):
    return RequestFactory().get("/teacher/sessions/1/", HTTP_HOST=host)


def test_a_loopback_address_gets_a_warning_and_the_lan_address_replaces_it(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "192.168.1.20", "quantum.school.example"]
    settings.PUBLIC_URL, settings.LAN_ADDRESS = "", ""
    alone = jl.join_link(_request("127.0.0.1:8000"), "ABC234")
    assert alone.url == "http://127.0.0.1:8000/join/?code=ABC234" and "only works on this computer" in alone.warning
    settings.LAN_ADDRESS = "192.168.1.20"
    lan = jl.join_link(_request("127.0.0.1:8000"), "ABC234")
    assert lan == jl.JoinLink("http://192.168.1.20:8000/join/?code=ABC234", "")
    opened_on_lan = jl.join_link(_request("192.168.1.20:8000"), "ABC234")
    assert opened_on_lan.url == "http://192.168.1.20:8000/join/?code=ABC234" and not opened_on_lan.warning
    settings.PUBLIC_URL = "https://quantum.school.example"
    assert jl.join_link(_request("127.0.0.1:8000"), "ABC234").url == \
        "https://quantum.school.example/join/?code=ABC234"


def test_the_dashboard_shows_the_lan_link_its_qr_and_no_warning(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "testserver"]
    settings.PUBLIC_URL, settings.LAN_ADDRESS = "", ""
    teacher = User.objects.create_user("mr-bohr", password="complementarity-1927")
    session = services.open_session(Classroom.objects.create(teacher=teacher, name="9A"), "quantum-tictactoe")
    client = Client(HTTP_HOST="127.0.0.1:8000")
    client.force_login(teacher)
    page = client.get(f"/teacher/sessions/{session.pk}/").content.decode()
    assert 'id="join-warning"' in page
    jl.admit_lan_address("192.168.1.20")
    assert "192.168.1.20" in settings.ALLOWED_HOSTS
    page = client.get(f"/teacher/sessions/{session.pk}/").content.decode()
    url = f"http://192.168.1.20:8000/join/?code={session.join_code}"
    assert url in page and 'id="join-warning"' not in page
    assert qr_svg(url).split("<path", 1)[1][:200] in page  # the QR encodes the LAN link
    phone = Client(HTTP_HOST="192.168.1.20:8000")  # the LAN host is allowed
    assert phone.get(f"/join/?code={session.join_code}").status_code == 200


def test_serve_lan_listens_on_the_network_and_admits_its_address(settings, monkeypatch, capsys):
    settings.DEBUG = True  # make run's development values (pytest-django turns DEBUG off)
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    settings.LAN_ADDRESS = ""
    monkeypatch.setenv("LAN_ADDRESS", "")  # (serve hands the address to its workers here: put back after)
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.20")
    ran = []
    from daphne import cli

    monkeypatch.setattr(cli.CommandLineInterface, "run", lambda self, args: ran.append(args))
    call_command("serve", "--lan", "--port", "8123", "--no-demo")
    assert ran == [["-b", "0.0.0.0", "-p", "8123", "config.asgi:application"]]
    assert "192.168.1.20" in settings.ALLOWED_HOSTS and settings.LAN_ADDRESS == "192.168.1.20"
    assert "http://192.168.1.20:8123/join/" in capsys.readouterr().out
    ran.clear()
    call_command("serve", "--port", "8124", "--no-demo")  # without --lan: this computer only
    assert ran == [["-b", "127.0.0.1", "-p", "8124", "config.asgi:application"]]
