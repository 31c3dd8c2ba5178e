from django.urls import include, path
from rest_framework.routers import DefaultRouter

from classrooms.api import ClassroomViewSet, ClassSessionViewSet
from games.api import GameList, MatchActions, MatchDetail, MatchReplay

router = DefaultRouter()
router.register("classes", ClassroomViewSet, basename="class")
router.register("sessions", ClassSessionViewSet, basename="session")

urlpatterns = [
    path("games/", GameList.as_view(), name="api-games"),
    path("matches/<int:match_id>/", MatchDetail.as_view(), name="api-match"),
    path("matches/<int:match_id>/actions/", MatchActions.as_view(), name="api-match-actions"),
    path("matches/<int:match_id>/replay/", MatchReplay.as_view(), name="api-match-replay"),
    path("", include("simulator.api_urls")),
    *router.urls,
]
