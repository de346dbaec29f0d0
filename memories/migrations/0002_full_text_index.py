from django.db import migrations


def install(apps, schema_editor):
    from memories import search

    search.install(schema_editor.connection)


def uninstall(apps, schema_editor):
    from memories import search

    search.uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("memories", "0001_initial")]

    operations = [migrations.RunPython(install, uninstall)]
