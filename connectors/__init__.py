"""Where items come from: one small module per source.

Connectors are built on the memseed core (``bootstrap_app.types``, ``errors``, ``text``) and
never on the pipeline. The import below only fixes load order: ``bootstrap_app``'s public API
re-exports :func:`connectors.base.detect`, so the core package finishes loading (and loads
``connectors.base`` whole on the way) before any connector module runs, whichever module a
process imports first.
"""

import bootstrap_app  # noqa: F401  (load order, see above)
