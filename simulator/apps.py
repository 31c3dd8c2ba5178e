from django.apps import AppConfig


class SimulatorConfig(AppConfig):
    name = "simulator"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Load the quantum stack once, in the main thread, as the process starts. Its native
        # extensions first loaded from a request thread crashed the server (SIGSEGV in
        # QuantumRegister, seen intermittently); loaded here, requests only use them.
        import matplotlib

        matplotlib.use("Agg")
        import qiskit  # noqa: F401
        import qiskit.qasm3  # noqa: F401
        import qiskit_aer  # noqa: F401
        from qiskit import QuantumRegister

        QuantumRegister(1)
