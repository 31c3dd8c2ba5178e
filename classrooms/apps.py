from django.apps import AppConfig


class ClassroomsConfig(AppConfig):
    name = "classrooms"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from classrooms import receivers  # noqa: F401  (connects the signal receivers)
        from classrooms.selectors import class_session_language
        from core.language import register_session_language

        register_session_language(class_session_language)  # the teacher's language for a class session
