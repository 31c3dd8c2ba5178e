from django.urls import path

from simulator import views

app_name = "simulator"
urlpatterns = [
    path("matches/<int:match_id>/stats/", views.match_stats, name="match-stats"),
    path("matches/<int:match_id>/circuit/", views.match_circuit, name="circuit"),
    path("matches/<int:match_id>/circuit.qasm", views.match_circuit_qasm, name="circuit-qasm"),
    path("teacher/sessions/<int:session_id>/statistics/", views.session_stats, name="session-stats"),
    path("teacher/classes/<int:class_id>/quantum/", views.class_quantum, name="class-quantum"),
]
