from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("matches/<int:match_id>/", views.play, name="play"),
    path("matches/<int:match_id>/replay/", views.replay, name="replay"),
    path("games/<slug:slug>/rules/", views.rules, name="rules"),
]
