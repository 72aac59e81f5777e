"""Reports on run, sweep, tournament and ladder directories (HTML or Markdown, with figures); ``build.write_report``
is the entry point."""

__all__ = ["build"]
