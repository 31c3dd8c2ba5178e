from django.urls import path

from classrooms import card_views, exercise_views, map_views, progress_views, views

app_name = "classrooms"
urlpatterns = [
    path("teacher/", views.teacher_home, name="teacher-home"),
    path("teacher/classes/<int:class_id>/", views.classroom_detail, name="classroom"),
    path("teacher/classes/<int:class_id>/delete/", views.delete_classroom, name="delete-classroom"),
    path("teacher/sessions/<int:session_id>/", views.dashboard, name="dashboard"),
    path("sessions/<int:session_id>/screen/", views.screen, name="screen"),
    path("teacher/sessions/<int:session_id>/report/", views.report, name="report"),
    path("teacher/sessions/<int:session_id>/delete/", views.delete_session, name="delete-session"),
    path("teacher/classes/<int:class_id>/exercises/new/", exercise_views.exercise_new, name="exercise-new"),
    path("teacher/classes/<int:class_id>/exercises/validate/", exercise_views.exercise_validate,
         name="exercise-validate"),
    path("teacher/classes/<int:class_id>/exercises/<int:exercise_id>/open/", exercise_views.exercise_open,
         name="exercise-open"),
    path("teacher/classes/<int:class_id>/exercises/<int:exercise_id>/delete/", exercise_views.exercise_delete,
         name="exercise-delete"),
    path("teacher/classes/<int:class_id>/maps/", map_views.map_upload, name="map-upload"),
    path("teacher/classes/<int:class_id>/maps/<int:map_id>/delete/", map_views.map_delete, name="map-delete"),
    path("teacher/classes/<int:class_id>/cards/", card_views.cards_print, name="cards"),
    path("teacher/classes/<int:class_id>/cards/enable/", card_views.cards_enable, name="cards-enable"),
    path("teacher/classes/<int:class_id>/members/add/", card_views.members_add, name="members-add"),
    path("teacher/classes/<int:class_id>/members/<int:member_id>/reissue/", card_views.member_reissue,
         name="member-reissue"),
    path("teacher/classes/<int:class_id>/members/<int:member_id>/delete/", card_views.member_delete,
         name="member-delete"),
    path("teacher/classes/<int:class_id>/progress/", progress_views.class_progress, name="class-progress"),
    path("teacher/classes/<int:class_id>/members/<int:member_id>/progress/", progress_views.member_progress,
         name="member-progress"),
    path("join/", views.join, name="join"),
    path("lobby/<int:session_id>/", views.lobby, name="lobby"),
]
