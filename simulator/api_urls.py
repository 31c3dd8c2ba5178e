from django.urls import path

from simulator import api

urlpatterns = [
    path("runs/", api.RunList.as_view(), name="api-simulator-runs"),
    path("runs/<int:run_id>/", api.RunDetail.as_view(), name="api-simulator-run"),
    path("runs/<int:run_id>/cancel/", api.RunCancel.as_view(), name="api-simulator-run-cancel"),
    path("matches/<int:match_id>/odds/", api.MatchOdds.as_view(), name="api-simulator-odds"),
    path("matches/<int:match_id>/circuit/", api.MatchCircuit.as_view(), name="api-simulator-circuit"),
    path("quantum/devices/", api.QuantumBackends.as_view(), name="api-simulator-devices"),
    path("sessions/<int:session_id>/statistics/", api.SessionStatistics.as_view(),
         name="api-simulator-session-stats"),
    path("classes/<int:class_id>/ibm-token/", api.ClassIBMToken.as_view(), name="api-simulator-ibm-token"),
    path("classes/<int:class_id>/quantum-policy/", api.ClassQuantumPolicy.as_view(),
         name="api-simulator-policy"),
]
