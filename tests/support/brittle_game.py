"""A test game that breaks on purpose: its parser raises on BOOM, its resolver on CRASH.
It stands for a ruleset bug that a hostile order file finds; the host must survive it."""

from __future__ import annotations

from fixture_game import HighCard

from pbem.rulesets import register


class Brittle(HighCard):
    id = "brittle"
    title = "Brittle (test fixture)"

    def parse(self, state, seat, text):  # type: ignore[no-untyped-def]
        if "BOOM" in text:
            raise ValueError("the parser broke on BOOM")
        return super().parse(state, seat, text)

    def resolve(self, state, orders, dice):  # type: ignore[no-untyped-def]
        if state.get("crash"):
            raise RuntimeError("the resolver broke")
        return super().resolve(state, orders, dice)


register(Brittle())
