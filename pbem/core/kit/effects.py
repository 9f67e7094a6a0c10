"""An effect registry: one small function per card or lore effect, looked up by the
effect's id from the data files (no long if/elif dispatcher).

    EFFECTS = Effects("lore effect")

    @EFFECTS.register("heal")
    def heal(ctx, seat, card): ...   # Rulebook p. 30: ...

    EFFECTS("heal", ctx, seat, card)

`missing(ids)` lists ids that have no handler, for the test that every effect named in
the data files is handled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class Effects:
    def __init__(self, what: str = "effect") -> None:
        self.what = what
        self._handlers: dict[str, Callable[..., Any]] = {}

    def register(self, *ids: str) -> Callable[[F], F]:
        def wrap(fn: F) -> F:
            for ident in ids:
                if ident in self._handlers:
                    raise ValueError(f"{self.what} {ident!r} has two handlers")
                self._handlers[ident] = fn
            return fn
        return wrap

    def __call__(self, ident: str, *args: Any, **kwargs: Any) -> Any:
        try:
            fn = self._handlers[ident]
        except KeyError:
            raise KeyError(f"no handler for {self.what} {ident!r}") from None
        return fn(*args, **kwargs)

    def __contains__(self, ident: str) -> bool:
        return ident in self._handlers

    def ids(self) -> set[str]:
        return set(self._handlers)

    def missing(self, ids: Iterable[str]) -> list[str]:
        return sorted(set(ids) - set(self._handlers))
