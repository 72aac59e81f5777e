"""The API's functions carry the commands' names (``playtest skill`` is ``api.skill``), the former names warn for
one release, and ``simulate`` has one default number of games on the command line and in the API."""

import inspect

import click
import pytest

from playtest import api
from playtest.cli import cli

NO_FUNCTION = {"warm"}  # compiles kernels ahead of use: nothing for a script to call


def test_every_command_is_an_api_function_of_the_same_name():
    names = cli.list_commands(click.Context(cli))
    assert [n for n in names if n not in NO_FUNCTION and not callable(getattr(api, n.replace("-", "_"), None))] == []


def test_the_former_setup_table_warns_and_gives_the_setup_table():
    with pytest.warns(DeprecationWarning, match=r"api\.setup_table is deprecated.*api\.setup"):
        text = api.setup_table("forks")
    assert text == api.setup("forks") and "[players" in text


def test_the_former_by_model_warns_and_is_skill(tmp_path):
    with pytest.warns(DeprecationWarning, match=r"api\.by_model is deprecated.*api\.skill"):
        with pytest.raises(api.RunError, match="give at least one player model"):
            api.by_model("forks", tmp_path / "study", models=[])
    assert not (tmp_path / "study").exists()


def test_simulate_has_one_default_number_of_games():
    option = next(p for p in cli.get_command(click.Context(cli), "simulate").params if p.name == "games")
    assert option.default == inspect.signature(api.simulate).parameters["games"].default == api.GAMES
