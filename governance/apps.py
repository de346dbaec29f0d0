from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _seed_schedules(using, **kwargs):
    from governance import schedules

    schedules.seed()


class GovernanceConfig(AppConfig):
    name = "governance"
    verbose_name = "Governance"

    def ready(self):
        # After every migrate (and every test database flush), so the jobs always have their schedules.
        post_migrate.connect(_seed_schedules, sender=self)
