from django.apps import AppConfig
from django.db import connections
from django.db.models.signals import post_migrate, pre_migrate


def _before_migrate(sender, using, **kwargs):
    from memories import search

    search.drop_live_view(connections[using])


def _after_migrate(sender, using, **kwargs):
    from memories import search

    connection = connections[using]
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
    if "memory" in tables:
        search.install(connection)
        search.install_live_view(connection)


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = "Memories"

    def ready(self):
        pre_migrate.connect(_before_migrate, sender=self)
        post_migrate.connect(_after_migrate, sender=self)
