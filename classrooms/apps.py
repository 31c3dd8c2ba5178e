from django.apps import AppConfig


class ClassroomsConfig(AppConfig):
    name = "classrooms"
    default_auto_field = "django.db.models.BigAutoField"
