"""`python -m playtest` is the `playtest` command."""

from playtest.cli import main

main()
