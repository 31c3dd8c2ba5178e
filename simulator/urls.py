from django.urls import path  # noqa: F401

app_name = "simulator"
urlpatterns: list = []
