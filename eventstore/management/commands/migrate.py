"""``python manage.py migrate``, as the database's owner when there are two roles.

With settings ``DATABASE_OWNER`` (from ``DATABASE_OWNER_URL``), the migrations run connected as
the role that owns the tables, and the application's role (``DATABASE_URL``'s) is then granted
what it may do (eventstore/grants.py). Without it, Django's migrate as it is.
"""

from typing import Any

from django.conf import settings
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections

from eventstore.grants import grant


class Command(DjangoMigrate):
    help = DjangoMigrate.help + " As DATABASE_OWNER_URL's role when it is set, then granting DATABASE_URL's."

    def handle(self, *args: Any, **options: Any) -> None:
        owner = settings.DATABASE_OWNER
        connection = connections[options["database"]]
        if owner is not None and connection.settings_dict.get("USER") != owner["USER"]:
            connection.close()
            connection.settings_dict.update(owner)
        super().handle(*args, **options)
        role = settings.DATABASE_APP_ROLE
        if owner is not None and connection.vendor == "postgresql" and role and role != owner["USER"]:
            grant(connection, role=role)
            if options["verbosity"] >= 1:
                self.stdout.write(f"Granted role {role} what the application may do.")
