"""What every page of the console and every API answer carries."""

from django.utils.cache import add_never_cache_headers


class PrivatePages:
    """Nothing the app serves may be kept by a browser or a proxy: every page shows the owner's memories or
    a form with its CSRF token, and every API answer an agent's. ``Cache-Control: no-store`` (and its
    older forms) on all of them; the static files, served before this by WhiteNoise, are cached as usual."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        add_never_cache_headers(response)
        return response
