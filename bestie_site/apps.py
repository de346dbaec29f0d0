from django.apps import AppConfig


class BestieSiteConfig(AppConfig):
    name = "bestie_site"
    verbose_name = "Bestie"

    def ready(self):
        from bestie_site import checks  # noqa: F401  (registers the system checks)
