"""Money: settling a finished game into chips by each portal's rules (imports only the engine).

One job per module: :mod:`.settlement` is the entry point (``settle``); :mod:`.reckoning` says
what each seat owes whom and why, and who pays đền bài (so who leads the next game);
:mod:`.hands` prices a hand held at the end (thối, the count, cóng) for settlement and bots
alike; :mod:`.sharing` pays against balances and takes the house fee; :mod:`.items` holds a
line and the facts behind it, :mod:`.words` their English and Vietnamese; :mod:`.rooms` is the
lobby's rooms and fees; :mod:`.limits` the most one game can cost a player. docs/SCORING.md
describes it all.
"""
