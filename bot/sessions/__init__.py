"""Tables per channel: lobbies, moves, a table's life, resume, the scheduler of timers and computer turns, and
the presenter that shows it all in the channel at Discord's pace (`manager.py` wires them).

No discord.py here: the bot implements the presenter's `Announcer` (`bot.discord_out`).
"""

from bot.sessions.errors import ChannelGone, DMClosed, EditExpired, MissingPermission, NotAllowed
from bot.sessions.manager import SessionManager
from bot.sessions.presenter import Announcer
from bot.sessions.records import SessionState, TableRecord

__all__ = [
    "Announcer",
    "ChannelGone",
    "DMClosed",
    "EditExpired",
    "MissingPermission",
    "NotAllowed",
    "SessionManager",
    "SessionState",
    "TableRecord",
]
