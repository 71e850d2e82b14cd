from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
]

handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
