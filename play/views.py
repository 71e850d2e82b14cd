"""The web table's one page: every screen is drawn by its JavaScript modules from the API."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """The page that loads the web table (its screens are routed by the URL's fragment)."""
    return render(request, "play/index.html")
