"""`collector_paused`: no cyclic collection inside, the collector as it was afterwards, and
what the block made frozen out of later collections' view."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from openhands_tui.startup import collector_paused


@pytest.fixture
def collector() -> Iterator[None]:
    was = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("before", [True, False])
def test_the_collector_is_off_inside_and_as_it_was_after(collector: None, before: bool) -> None:
    (gc.enable if before else gc.disable)()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block does not switch it on for the outer one
    assert gc.isenabled() is before


def test_it_is_put_back_when_the_import_fails(collector: None) -> None:
    gc.enable()
    with pytest.raises(ModuleNotFoundError), collector_paused():
        import openhands_tui.no_such_module  # type: ignore[import-not-found]  # noqa: F401
    assert gc.isenabled()


def test_what_the_block_made_is_frozen(collector: None) -> None:
    gc.unfreeze()
    with collector_paused():
        made = [[n] for n in range(10_000)]
    assert gc.get_freeze_count() >= len(made)
