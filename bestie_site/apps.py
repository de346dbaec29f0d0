from django.apps import AppConfig


class BestieSiteConfig(AppConfig):
    name = "bestie_site"
    verbose_name = "Bestie"
