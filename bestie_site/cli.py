"""The ``bestie`` console script: ``bestie memory list`` is ``python manage.py memory list``."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(["bestie", *sys.argv[1:]])
