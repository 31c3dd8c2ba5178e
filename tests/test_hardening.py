"""What an attacker-style probe of a production deployment got through, refused in-process:
request bodies at the ASGI layer, the admin's login, login lock-outs, replays and exports of
other seats' secrets, and the smaller holes (run cancelling, idle sessions, unbounded lists,
NaN, map validation, card codes in URLs, the Celery worker's key, encoded static paths)."""
from __future__ import annotations

import asyncio
import json

import pytest

from config.bodylimit import BodyLimit

MB = 1 << 20


# ----------------------------------------------------------------- request bodies (ASGI layer)

def _asgi(app, scope: dict, messages: list[dict]) -> tuple[list[dict], int]:
    """Run ``app`` with ``messages`` as the request; (what it sent, how many were read)."""
    sent: list[dict] = []
    read = 0

    async def receive():
        nonlocal read
        read += 1
        return messages[read - 1] if read <= len(messages) else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent, read


def _scope(path="/accounts/login/", headers=()):
    return {"type": "http", "method": "POST", "path": path, "headers": list(headers)}


async def _never_called(scope, receive, send):
    raise AssertionError("the application was called")


def test_a_declared_body_over_the_limit_is_a_413_before_a_byte_is_read(settings):
    settings.REQUEST_BODY_MAX_BYTES = 1000
    sent, read = _asgi(BodyLimit(_never_called),
                       _scope("/api/sessions/", [(b"content-length", str(500 * MB).encode()),
                                                 (b"accept-language", b"pl")]), [])
    assert read == 0
    assert sent[0]["status"] == 413
    body = json.loads(sent[1]["body"])
    assert body["code"] == "too_large" and "kB" in body["message"] and "Żądanie" in body["message"]


def test_a_streamed_body_is_counted_and_refused_once_past_the_limit(settings):
    """A server that streams the body (uvicorn): the middleware stops reading at the limit."""
    settings.REQUEST_BODY_MAX_BYTES = 3 * MB
    chunks = [{"type": "http.request", "body": b"x" * MB, "more_body": True} for _ in range(200)]
    sent, read = _asgi(BodyLimit(_never_called), _scope(), chunks)
    assert read == 4 and sent[0]["status"] == 413
    assert b"Too much was sent" in sent[1]["body"]


def test_a_body_within_the_limit_reaches_the_app_whole(settings):
    settings.REQUEST_BODY_MAX_BYTES = 3 * MB
    got = []

    async def app(scope, receive, send):
        got.append(await receive())
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    chunks = [{"type": "http.request", "body": b"ab", "more_body": True},
              {"type": "http.request", "body": b"cd", "more_body": False}]
    sent, _read = _asgi(BodyLimit(app), _scope(), chunks)
    assert got == [{"type": "http.request", "body": b"abcd", "more_body": False}]
    assert sent[0]["status"] == 204


# ----------------------------------------------------------------- ?limit= is capped

@pytest.mark.django_db
def test_an_api_list_gives_at_most_200_rows_whatever_the_limit_asked(teacher_user):
    from django.test import Client

    from classrooms.models import Classroom

    Classroom.objects.bulk_create([Classroom(teacher=teacher_user, name=f"C{i}") for i in range(230)])
    client = Client()
    client.force_login(teacher_user)
    page = client.get("/api/classes/?limit=1000000").json()
    assert page["count"] == 230 and len(page["results"]) == 200 and page["next"]
    assert len(client.get("/api/classes/?limit=20").json()["results"]) == 20
