from django.apps import AppConfig


class ClassroomsConfig(AppConfig):
    name = "classrooms"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from classrooms import receivers  # noqa: F401  (connects the signal receivers)
        from config import checks  # noqa: F401  (registers the deploy checks)
