from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api import views
from api.errors import not_found

app_name = "api"

GAME = "games/<str:game_id>"

urlpatterns = [
    path("", views.IndexView.as_view(), name="index"),
    path("health", views.HealthView.as_view(), name="health"),
    path("auth/register", views.RegisterView.as_view(), name="register"),
    path("auth/token", views.TokenView.as_view(), name="token"),
    path("auth/logout", views.LogoutView.as_view(), name="logout"),
    path("games", views.GamesView.as_view(), name="games"),
    path(f"{GAME}", views.GameView.as_view(), name="game"),
    path(f"{GAME}/join", views.JoinView.as_view(), name="join"),
    path(f"{GAME}/bots", views.BotsView.as_view(), name="bots"),
    path(f"{GAME}/start", views.StartView.as_view(), name="start"),
    path(f"{GAME}/decision", views.DecisionView.as_view(), name="decision"),
    path(f"{GAME}/moves", views.MovesView.as_view(), name="moves"),
    path(f"{GAME}/undo", views.UndoView.as_view(), name="undo"),
    path(f"{GAME}/confirm", views.ConfirmView.as_view(), name="confirm"),
    path(f"{GAME}/sheets/<str:sheet>", views.SheetView.as_view(), name="sheet"),
    path(f"{GAME}/events", views.EventsView.as_view(), name="events"),
    path(f"{GAME}/replay", views.ReplayView.as_view(), name="replay"),
    path(f"{GAME}/export", views.ExportView.as_view(), name="export"),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"^.*$", not_found),
]
