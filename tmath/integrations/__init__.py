"""Integrations with other tools: the pytest plugin (:mod:`tmath.integrations.pytest_plugin`)."""
