"""What memseed does to an agent's memory after review: plan, write and undo (``write``); move
memory between agents (``move``); keep it fresh (``freshness``: is what was written still true,
``hooks``: the agents' start-up line, ``schedule``: reseed on a timer); and ``status`` at a glance.

The one wiring done here: after every write or undo that lands, the start-up hook's summary is
rebuilt (:func:`~bootstrap_app.memory.write.after_write` runs
:func:`~bootstrap_app.memory.freshness.keep_watch`). Importing any module of this package runs
this file first, so no front end can write without it.
"""

from bootstrap_app.memory.freshness import keep_watch
from bootstrap_app.memory.write import after_write

after_write(keep_watch)
