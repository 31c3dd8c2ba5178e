from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from classrooms import accounts
from classrooms import views as classroom_views
from core import jscatalog

urlpatterns = [
    path("", classroom_views.home, name="home"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the header's switcher
    # the scripts' strings: the pages load the versioned URL, kept for a year (core/jscatalog.py)
    path("jsi18n/", jscatalog.javascript_catalog, name="javascript-catalog"),
    path("jsi18n/<str:language>/<str:version>.js", jscatalog.versioned_javascript_catalog,
         name="javascript-catalog-versioned"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutPage.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("", include("classrooms.urls")),
    path("", include("games.urls")),
    path("", include("simulator.urls")),
    path("api/", include("config.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("admin/login/", accounts.admin_login),  # one throttled login form for both
    path("admin/", admin.site.urls),
]
if settings.PASSWORD_RESET_ENABLED:  # only where mail can be sent; otherwise not offered at all
    urlpatterns += [
        path("accounts/password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
        path("accounts/password_reset/done/", auth_views.PasswordResetDoneView.as_view(),
             name="password_reset_done"),
        path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
             name="password_reset_confirm"),
        path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(),
             name="password_reset_complete"),
    ]

handler400 = "core.pages.bad_request"
handler403 = "core.pages.permission_denied"
handler404 = "core.pages.page_not_found"
handler500 = "core.pages.server_error"
