from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView

urlpatterns = [
    path("", RedirectView.as_view(url="/play/", permanent=False)),
    path("play/", include("play.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    # Anything else under /api/ (another version, a typo) is the API's JSON 404 too.
    re_path(r"^api(?=/|$)", include("api.fallback")),
]

handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
