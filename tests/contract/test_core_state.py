"""The one declaration of a State's fields (``industry_env.core.state``): layout, views, surgery, pickling."""

import pickle

import numpy as np
import pytest

from industry_env.core.state import BatchState, Field, Schema

SCHEMA = Schema([
    Field("seed", np.int64, (), 0, "chance seed"),
    Field("flag", bool, (), False, "a flag"),
    Field("money", np.int16, (3,), 0, "money per seat"),
    Field("owner", np.int8, (5,), -1, "owner of each space, -1 none"),
    Field("rewards", np.float32, (3,), 0.0, "last step's rewards"),
])


class Toy(BatchState):
    SCHEMA = SCHEMA
    EXTRAS = ("board",)


def test_layout_puts_the_widest_fields_first_in_declared_order_and_counts_bytes():
    assert SCHEMA.offset == {"seed": 0, "rewards": 8, "money": 20, "flag": 26, "owner": 27}
    assert SCHEMA.bytes_per_game == 8 + 12 + 6 + 1 + 5
    assert SCHEMA.units("rewards") == 2 and SCHEMA.units("money") == 10 and SCHEMA.units("owner") == 27


def test_a_field_name_declared_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        Schema([Field("a", np.int8), Field("a", np.int16)])


def test_empty_fills_each_field_and_every_array_views_the_one_buffer():
    s = Toy.empty(4, board="b")
    assert s.batch_size == 4 and s.board == "b"
    assert (s.owner == -1).all() and s.owner.shape == (4, 5) and s.owner.dtype == np.int8
    assert (s.money == 0).all() and s.money.dtype == np.int16
    s.money[2, 1] = 7
    buf = s.buffer
    B = 4
    view = buf.view(np.int16)[SCHEMA.units("money") * B: SCHEMA.units("money") * B + 3 * B].reshape(B, 3)
    assert view[2, 1] == 7  # a kernel's offset finds what the array wrote


def test_replacing_a_field_lets_the_buffer_go_and_backed_moves_the_arrays_back_into_one():
    s = Toy.empty(2, board=None)
    s.money[0, 0] = 3
    s.money = s.money + 1
    assert s.buffer is None
    buf = s.backed()
    assert s.buffer is buf and s.money[0, 0] == 4 and (s.owner == -1).all()
    s.money[1, 2] = 9
    assert buf.view(np.int16)[SCHEMA.units("money") * 2 + 5] == 9


def test_copy_take_put_concat_keep_the_games_and_share_the_extras():
    s = Toy.empty(3, board="b")
    s.seed[:] = [10, 11, 12]
    c = s.copy()
    c.seed[0] = 99
    assert s.seed[0] == 10
    t = s.take([2, 0])
    assert t.seed.tolist() == [12, 10] and t.board == "b"
    s.put([1], s.take(2))
    assert s.seed.tolist() == [10, 12, 12]
    j = Toy.concat([s, t])
    assert j.seed.tolist() == [10, 12, 12, 12, 10] and j.batch_size == 5
    with pytest.raises(ValueError, match="differ"):
        Toy.concat([s, Toy.empty(1, board="other")])


def test_take_and_put_name_a_row_outside_the_batch_and_leave_the_state_unchanged():
    """take(9) of a batch of 3 gave numpy's "index 9 is out of bounds for axis 0"; put wrote nothing either way."""
    s = Toy.empty(3, board="b")
    s.seed[:] = [10, 11, 12]
    with pytest.raises(IndexError, match="take: row 9 is out of range for a batch of 3 games"):
        s.take(9)
    with pytest.raises(IndexError, match="put: row -4 is out of range"):
        s.put([0, -4], s.take([0, 1]))
    with pytest.raises(IndexError, match="whole numbers"):
        s.take([0.5])
    assert s.seed.tolist() == [10, 11, 12] and s.take(-1).seed.tolist() == [12]


def test_pickling_keeps_every_field():
    s = Toy.empty(2, board="b")
    s.owner[1, 4] = 2
    u = pickle.loads(pickle.dumps(s))
    assert u.owner[1, 4] == 2 and u.board == "b" and u.buffer is None


def test_a_state_built_from_arrays_names_what_is_missing():
    with pytest.raises(TypeError, match="missing"):
        Toy(seed=np.zeros(1, np.int64), board=None)
