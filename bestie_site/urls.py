from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.http import require_GET

from memories.api import api
from memories.mcp_server import http_endpoint as mcp_endpoint
from review import views as review_views


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico whatever a page links: send them to the static icon (not a
    permanent redirect: its name changes with its content)."""
    return HttpResponseRedirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    # MCP's streamable HTTP; clients are configured with either spelling.
    path("mcp/", mcp_endpoint, name="mcp"),
    path("mcp", mcp_endpoint),
    path("login/", review_views.login, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("governance.urls")),
    path("", include("review.urls")),
    path("", include("memories.urls")),
]
