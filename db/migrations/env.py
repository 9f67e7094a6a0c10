"""Alembic environment for pbem: runs on the connection pbem hands in (or a URL)."""

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import pbem.store.models  # noqa: F401  (registers the tables)

target_metadata = SQLModel.metadata
config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url"))
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata,
                              render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
