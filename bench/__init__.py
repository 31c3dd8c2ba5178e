"""Benchmarks (not part of the app or the test suite); ``bench.echo`` is served only when the
ECHO_SOCKET setting asks for it."""
