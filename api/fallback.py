"""Any address under /api/ that no version serves: the API's JSON 404 (see moon/urls.py)."""

from django.urls import re_path

from api.errors import not_found

urlpatterns = [re_path(r"^.*$", not_found)]
