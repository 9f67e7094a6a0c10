"""One order grammar for every game: a tokenizer, order types that parse themselves, and a
grammar that dispatches a line by its verb.

An order type is a frozen dataclass deriving from `Order`. It declares its verbs (English
and the rulebook's Hungarian, any case and accents), a usage line and an example, and
parses the rest of the line from `Tokens`; `str(order)` is its canonical form, and
`grammar.parse_line(state, seat, str(order)) == order` holds for every order. A parse
error is one line that says what is wrong and shows a correct example.

Not here: which orders a step accepts (`pbem.core.kit.game`) and whether an order is
legal in the position (each game's `check`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from pbem.core.i18n import Msg, _
from pbem.core.names import NameIndex, UnknownName, fold
from pbem.core.orders import OrderLine, Parsed, order_lines


class OrderError(ValueError):
    """A line that does not parse; the message says what is wrong and what would be right
    (a `pbem.core.i18n` message, so the player reads it in his language)."""


def message_of(exc: Exception) -> str:
    """An error's message as raised (a `Msg` stays a `Msg`; `str(exc)` would drop it)."""
    return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)


class Order:
    """Base of every game's order types (frozen dataclasses).

    `verbs`: the first word(s) of the line, canonical verb first (e.g. ("TAKE", "vesz")).
    `usage` / `example`: shown when the line is malformed ("write TAKE <tile>, e.g. TAKE key").
    `standing`: a standing order, accepted in every step and kept until replaced.
    """

    verbs: ClassVar[tuple[str, ...]] = ()
    usage: ClassVar[str] = ""
    example: ClassVar[str] = ""
    standing: ClassVar[bool] = False

    @classmethod
    def parse(cls, t: Tokens) -> Order:
        """Parse the words after the verb (`t` is positioned after it)."""
        raise NotImplementedError(cls.__name__)

    @classmethod
    def hint(cls) -> str:
        """'write USAGE, e.g. EXAMPLE' for error messages."""
        if not cls.usage:
            return ""
        return (_("write {usage}, e.g. {example}", usage=cls.usage, example=cls.example)
                if cls.example else _("write {usage}", usage=cls.usage))


class Tokens:
    """The words of one line, with the state and seat the line is read for.

    Keywords (`word`, `take_word`) are looked up in the grammar's keyword table, so a
    game lists its English and Hungarian keywords once.
    """

    def __init__(self, grammar: Grammar, state: Any, seat: str | None, text: str,
                 order: type[Order] | None = None) -> None:
        self.grammar = grammar
        self.state = state
        self.seat = seat
        self.toks = text.split()
        self.i = 0
        self.order = order  # the order type being parsed (for `fail`)

    # --- looking -------------------------------------------------------------------
    def more(self) -> bool:
        return self.i < len(self.toks)

    def peek(self) -> str | None:
        return self.toks[self.i] if self.more() else None

    def word(self) -> str | None:
        """The canonical keyword at the cursor (multi-word keywords too), not consumed."""
        return self._keyword()[0]

    def _keyword(self) -> tuple[str | None, int]:
        kw = self.grammar.keywords
        for n in range(min(self.grammar.longest_keyword, len(self.toks) - self.i), 0, -1):
            hit = kw.get(fold(" ".join(self.toks[self.i:self.i + n])))
            if hit is not None:
                return hit, n
        return None, 0

    def rest(self) -> str:
        return " ".join(self.toks[self.i:])

    # --- taking --------------------------------------------------------------------
    def next(self, what: str) -> str:
        if not self.more():
            raise self.error(_("the line ends where {what} should follow", what=what))
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def take_word(self, *words: str) -> str | None:
        """Consume and return the keyword at the cursor if it is one of `words`."""
        w, n = self._keyword()
        if w is not None and w in words:
            self.i += n
            return w
        return None

    def expect_word(self, *words: str) -> str:
        w = self.take_word(*words)
        if w is None:
            got = self.peek()
            where = _('"{word}"', word=got) if got is not None else _("the end of the line")
            raise self.error(_("expected {words}, not {where}", words=" or ".join(words),
                               where=where))
        return w

    def int(self, what: str, lo: int | None = None, hi: int | None = None) -> int:
        tok = self.next(what)
        if not (tok.isascii() and tok.isdigit()):
            raise self.error(_('"{tok}" is not a number; {what} is a whole number like 2',
                               tok=tok, what=what))
        n = int(tok)
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            span = f"{lo if lo is not None else ''}-{hi if hi is not None else ''}"
            raise self.error(_("{what} must be {span}, not {n}", what=what, span=span, n=n))
        return n

    def name(self, index: NameIndex, what: str | None = None) -> str:
        """The id of the longest run of words (at most 4) that names something in `index`."""
        if not self.more():
            raise self.error(_("the line ends where {what} should follow",
                               what=what or index.what))
        for n in range(min(4, len(self.toks) - self.i), 0, -1):
            ident = index.get(" ".join(self.toks[self.i:self.i + n]))
            if ident is not None:
                self.i += n
                return ident
        tok = self.toks[self.i]
        try:
            return index.lookup(tok)
        except UnknownName as exc:
            raise self.error(message_of(exc)) from None

    def done(self) -> None:
        if self.more():
            raise self.error(_('unexpected "{rest}" at the end of the line', rest=self.rest()))

    def sub_order(self, allowed: Sequence[type[Order]] = ()) -> Order:
        """The rest of the line as an order of its own (IF ... THEN <order>)."""
        text = self.rest()
        self.i = len(self.toks)
        if not text:
            raise self.error(_("an order must follow"))
        order = self.grammar.parse_line(self.state, self.seat, text)
        if allowed and not isinstance(order, tuple(allowed)):
            raise self.error(_("{verb} cannot be used here", verb=text.split()[0]))
        return order

    # --- errors --------------------------------------------------------------------
    def error(self, message: str) -> OrderError:
        """An OrderError whose message ends with the order's usage and example, unless the
        message already shows one."""
        hint = self.order.hint() if self.order is not None else ""
        if hint and "e.g." not in message and "write " not in message:
            message = _("{message}; {hint}", message=message, hint=hint)
        return OrderError(message)


class Grammar:
    """A game's order language: its order types, keywords and the verb table."""

    def __init__(self, orders: Iterable[type[Order]], *,
                 keywords: Mapping[str, Iterable[str]] | None = None,
                 what: str = _("command"), kinds: str | None = None) -> None:
        self.orders = tuple(orders)
        # What a line's first word is, and the list of them ("Commands: TAKE, PLACE").
        self.what = what
        self.kinds = kinds if kinds is not None else (
            _("Commands") if what == "command" else f"{what.capitalize()}s")
        self.verbs: dict[str, type[Order]] = {}
        for cls in self.orders:
            for verb in cls.verbs:
                key = fold(verb)
                if key in self.verbs and self.verbs[key] is not cls:
                    raise ValueError(f"verb {verb!r} names both {self.verbs[key].__name__} "
                                     f"and {cls.__name__}")
                self.verbs[key] = cls
        self.longest_verb = max((len(k.split()) for k in self.verbs), default=1)
        self.keywords: dict[str, str] = {}
        for canonical, aliases in (keywords or {}).items():
            for alias in (canonical, *aliases):
                self.keywords[fold(alias)] = canonical
        self.longest_keyword = max((len(k.split()) for k in self.keywords), default=1)

    def main_verbs(self) -> list[str]:
        return [cls.verbs[0] for cls in self.orders if cls.verbs]

    def order_type(self, toks: Sequence[str]) -> tuple[type[Order] | None, int]:
        for n in range(min(self.longest_verb, len(toks)), 0, -1):
            cls = self.verbs.get(fold(" ".join(toks[:n])))
            if cls is not None:
                return cls, n
        return None, 0

    def parse_line(self, state: Any, seat: str | None, text: str) -> Order:
        """One order from one line; raises OrderError naming the problem and the fix."""
        toks = text.split()
        if not toks:
            raise OrderError(_("empty line"))
        cls, n = self.order_type(toks)
        if cls is None:
            raise OrderError(self.unknown_verb(toks[0]))
        t = Tokens(self, state, seat, text, cls)
        t.i = n
        order = cls.parse(t)
        t.done()
        return order

    def unknown_verb(self, word: str) -> str:
        close = difflib.get_close_matches(fold(word), list(self.verbs), n=1, cutoff=0.6)
        hint = (_('; did you mean "{verb}"?', verb=self.verbs[close[0]].verbs[0]) if close
                else Msg(""))
        return _('"{word}" is not a {what}{hint} {kinds}: {verbs}', word=word, what=self.what,
                 hint=hint, kinds=self.kinds, verbs=", ".join(self.main_verbs()))

    def parse(self, state: Any, seat: str | None, text: str) -> Parsed:
        """Every command line of `text`, each parsed or with its one-line error."""
        lines = []
        for lineno, line in order_lines(text):
            try:
                lines.append(OrderLine(lineno, line, self.parse_line(state, seat, line)))
            except OrderError as exc:
                lines.append(OrderLine(lineno, line, None, message_of(exc)))
        return Parsed.of(lines)

    def usage(self) -> list[str]:
        """One usage line per order type (for docs and prompts)."""
        return [cls.usage for cls in self.orders if cls.usage]


def keyword_table(words: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """fold(alias) -> canonical word, for games that read keywords outside `Tokens`."""
    return {fold(a): k for k, v in words.items() for a in (k, *v)}
