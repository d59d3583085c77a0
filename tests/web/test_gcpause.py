"""Issue 32: a served worker's full garbage collections scan only what is new (``web/server/gcpause.py``),
and a cycle that became garbage among the frozen is still collected, within ``UNFREEZE_S``."""

from __future__ import annotations

import gc

import pytest

from scorekeeper.web.server import gcpause


class Node:
    pass


def cycle() -> Node:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


def nodes() -> int:
    return sum(isinstance(o, Node) for o in gc.get_objects())


@pytest.fixture
def freezer():
    f = gcpause.install(unfreeze_s=3600)
    yield f
    gcpause.uninstall(f)


def test_what_a_full_collection_leaves_is_not_scanned_by_the_next(freezer):
    kept = [cycle() for _ in range(100)]
    gc.collect()
    assert gc.get_freeze_count() > 0
    assert nodes() == 0, "the survivors were scanned again"  # frozen: not in get_objects()
    del kept


def test_a_frozen_object_is_still_freed_when_nothing_refers_to_it(freezer):
    import weakref

    class Plain:
        pass

    kept = Plain()
    gc.collect()
    gone = weakref.ref(kept)
    del kept
    assert gone() is None


def test_a_frozen_cycle_that_became_garbage_is_collected_after_the_unfreeze(freezer):
    import weakref

    kept = cycle()
    gc.collect()  # frozen now
    gone = weakref.ref(kept)
    del kept
    gc.collect()
    assert gone() is not None, "a frozen cycle is left until the unfreeze"
    freezer.since -= freezer.unfreeze_s  # ten minutes later
    gc.collect()  # gives the frozen back
    gc.collect()  # and scans them
    assert gone() is None


def test_a_served_worker_installs_it():
    from gunicorn.workers import ggevent

    from scorekeeper.web.server import serving

    before, server = list(gc.callbacks), ggevent.StreamServer
    try:
        serving.post_worker_init(None)
        added = [c for c in gc.callbacks if c not in before]
        assert len(added) == 1 and isinstance(added[0], gcpause.Freezer)
    finally:
        for c in [c for c in gc.callbacks if c not in before]:
            gcpause.uninstall(c)
        ggevent.StreamServer = server
