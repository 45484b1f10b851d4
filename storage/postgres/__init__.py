"""The PostgreSQL backend of the store contract, through asyncpg: one database shared by several processes."""

from storage.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
