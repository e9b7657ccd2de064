"""Cloud-account tests: loopback stand-ins' fixtures (Microsoft's live in ms_fixtures.py)."""

from .ms_fixtures import ms, signed_in

__all__ = ["ms", "signed_in"]
