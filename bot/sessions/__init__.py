"""Tables per channel: the service that applies and stores moves, the scheduler of timers and computer
turns, the presenter that shows it all in the channel at Discord's pace (`manager.py` wires them).

No discord.py here: the cogs implement the presenter's `Announcer`.
"""

from bot.sessions.errors import ChannelGone, DMClosed, EditExpired, MissingPermission, NotAllowed
from bot.sessions.manager import SessionManager
from bot.sessions.presenter import Announcer
from bot.sessions.state import Table, TableMeta

__all__ = [
    "Announcer",
    "ChannelGone",
    "DMClosed",
    "EditExpired",
    "MissingPermission",
    "NotAllowed",
    "SessionManager",
    "Table",
    "TableMeta",
]
