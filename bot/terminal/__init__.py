"""Play a registered game in the terminal against computer players: `cardtable-bot play <game>`.

The same engines (`bot.games`), computer players (`bot.games.ai`) and texts (`bot.render`) as the bot, with no
Discord, no token and no database: anyone can see the games in ten seconds. Reads moves from standard input,
typed or piped (no terminal needed). Nothing here imports discord.py.
"""
