from django.conf import settings
from django.urls import path

from classrooms.consumers import ScreenConsumer, SessionConsumer
from games.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/sessions/<int:session_id>/", SessionConsumer.as_asgi()),
    path("ws/sessions/<int:session_id>/screen/", ScreenConsumer.as_asgi()),  # the projector, read-only
]
if settings.ECHO_SOCKET:  # benchmarks only
    from bench.echo import EchoConsumer

    websocket_urlpatterns.append(path("ws/echo/", EchoConsumer.as_asgi()))
