from django.urls import path

from classrooms import views

app_name = "classrooms"
urlpatterns = [
    path("teacher/", views.teacher_home, name="teacher-home"),
    path("teacher/classes/<int:class_id>/", views.classroom_detail, name="classroom"),
    path("teacher/sessions/<int:session_id>/", views.dashboard, name="dashboard"),
    path("teacher/sessions/<int:session_id>/report/", views.report, name="report"),
    path("teacher/sessions/<int:session_id>/delete/", views.delete_session, name="delete-session"),
    path("join/", views.join, name="join"),
    path("lobby/<int:session_id>/", views.lobby, name="lobby"),
]
