from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from classrooms import views as classroom_views

urlpatterns = [
    path("", classroom_views.home, name="home"),
    path("accounts/signup/", classroom_views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("classrooms.urls")),
    path("", include("games.urls")),
    path("", include("simulator.urls")),
    path("api/", include("config.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("admin/", admin.site.urls),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
