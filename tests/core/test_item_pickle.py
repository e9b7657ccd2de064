"""Items pickle as their ``__dict__``'s names and values (``_ItemBase.__reduce__``) and come back
equal, of the same class, with the same state, whatever they carry besides their fields."""

from __future__ import annotations

import copy
import pickle

import pytest

from bootstrap_app.types import Message
from connectors.local.lazybody import FileBody, LazyMessage
from connectors.local.mboxitems import Outcome

from .test_itemjson import FULL


@pytest.mark.parametrize("item", FULL, ids=lambda i: type(i).__name__)
def test_every_item_kind_round_trips(item: object) -> None:
    back = pickle.loads(pickle.dumps(item, protocol=5))
    assert type(back) is type(item) and back == item
    assert back.__dict__ == item.__dict__ and list(back.__dict__) == list(item.__dict__)
    assert copy.copy(item) == item and copy.deepcopy(item) == item


def test_cached_values_travel_and_shapes_are_shared() -> None:
    [message] = [i for i in FULL if isinstance(i, Message)]
    assert message.third_party_reason  # computed here: kept in the __dict__, so it must travel
    other = Message(source="s", ref="r", labels=("Inbox",))
    _ = other.third_party_reason
    back = pickle.loads(pickle.dumps([message, other], protocol=5))
    assert back == [message, other]
    assert back[0].__dict__["third_party_reason"] == message.third_party_reason
    assert back[1].__dict__["third_party_reason"] == "received (in the inbox, not in Sent)"
    assert "in_sent" in back[1].__dict__
    first, second = (Message(source="s", ref=str(n)).__reduce__()[1] for n in range(2))
    assert first[1] is second[1]  # one names tuple per shape: a batch writes it once


def test_an_unread_lazy_message_stays_unread(tmp_path: object) -> None:
    body = FileBody("/nonexistent/mbox", 0, 10, 11, 20, 100, str.strip)
    item = LazyMessage.with_loader(body, source="mbox:x", ref="<a@b>", subject="hi")
    back = pickle.loads(pickle.dumps(item, protocol=5))
    assert isinstance(back, LazyMessage) and not back.body_loaded and back.unread_body() == body
    assert back == item and back.body == ""  # the file is gone: the headers stand, the body is empty


@pytest.mark.parametrize("out", [
    Outcome(12, Message(source="s", ref="r")),
    Outcome(-1),
    Outcome(7, None, (("r", "why"),), spam=False, stop=True),
    Outcome(9, spam=True),
    Outcome(3, Message(source="s", ref="r"), (("r", "read partially"),)),
], ids=repr)
def test_outcomes_round_trip(out: Outcome) -> None:
    assert pickle.loads(pickle.dumps(out, protocol=5)) == out
