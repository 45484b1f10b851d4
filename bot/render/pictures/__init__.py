"""What every picture is drawn with, in Pillow from shapes and text (no Discord, no downloaded art): the
canvas and its PNG (`canvas`), the sprites and their colours (`sprites`), the bundled font and the record of
what was drawn where (`text`), the pieces both games lay out (`pieces`), how players and cards are named
(`labels`), and the pictures that are no game's own: the result card (`result`) and the /stats chart
(`chart`). Each game's own pictures are in its presentation folder (`bot/render/<game>/pictures.py`); the
pictures a reader gets, drawn once per state, come from `bot.render.drawings`.
"""
