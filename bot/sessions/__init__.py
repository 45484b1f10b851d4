"""Tables per channel: lobby, seats, the apply-persist-announce cycle, turn timers, computer turns, resume.

No discord.py here (the cogs implement `Announcer`); see `manager.py` for the cycle.
"""

from bot.sessions.errors import NotAllowed
from bot.sessions.manager import Announcer, DMClosed, SessionManager
from bot.sessions.state import Table, TableMeta

__all__ = ["Announcer", "DMClosed", "NotAllowed", "SessionManager", "Table", "TableMeta"]
