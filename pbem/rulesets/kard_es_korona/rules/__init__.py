"""The rules of Kard és Korona, one module per rulebook chapter, each importing only the
ones below it: control (2.3: who holds what) < setup (3.1-3.2) < economy (3.3-3.4, 4:
money and recruitment) < movement (3.5, 6.2) < combat (3.6-3.8, 6.3: one battle) < victory
(5) < defeat (p. 5, p. 11) < battles (phase IV) < elections (4) < year (3.3: the year's
phases, which also turns up the event cards of `effects.py`)."""
