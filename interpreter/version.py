"""The version of orrery (read by the package build, the CLI, saves and logs)."""

__version__ = "0.2.0.dev0"
