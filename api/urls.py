from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api import campaign_views, streams, views
from api.errors import not_found

app_name = "api"

GAME = "games/<str:game_id>"
CAMPAIGN = "campaigns/<str:campaign_id>"

urlpatterns = [
    path("", views.IndexView.as_view(), name="index"),
    path("health", views.HealthView.as_view(), name="health"),
    path("history-key", views.HistoryKeyView.as_view(), name="history_key"),
    path("auth/register", views.RegisterView.as_view(), name="register"),
    path("auth/token", views.TokenView.as_view(), name="token"),
    path("auth/logout", views.LogoutView.as_view(), name="logout"),
    path("auth/logout-all", views.LogoutAllView.as_view(), name="logout_all"),
    path("games", views.GamesView.as_view(), name="games"),
    path(f"{GAME}", views.GameView.as_view(), name="game"),
    path(f"{GAME}/join", views.JoinView.as_view(), name="join"),
    path(f"{GAME}/leave", views.LeaveView.as_view(), name="leave"),
    path(f"{GAME}/seats/<str:seat>/remove", views.RemoveSeatView.as_view(), name="remove_seat"),
    path(f"{GAME}/resign", views.ResignView.as_view(), name="resign"),
    path(f"{GAME}/bots", views.BotsView.as_view(), name="bots"),
    path(f"{GAME}/start", views.StartView.as_view(), name="start"),
    path(f"{GAME}/decision", views.DecisionView.as_view(), name="decision"),
    path(f"{GAME}/moves", views.MovesView.as_view(), name="moves"),
    path(f"{GAME}/undo", views.UndoView.as_view(), name="undo"),
    path(f"{GAME}/confirm", views.ConfirmView.as_view(), name="confirm"),
    path(f"{GAME}/sheets/<str:sheet>.svg", views.SheetSvgView.as_view(), name="sheet_svg"),
    path(f"{GAME}/sheets/<str:sheet>", views.SheetView.as_view(), name="sheet"),
    path(f"{GAME}/events", streams.long_polled(views.EventsView, streams.GAME), name="events"),
    path(f"{GAME}/stream", streams.GameStreamView.as_view(), name="stream"),
    path(f"{GAME}/stream-ticket", streams.GameStreamTicketView.as_view(), name="stream_ticket"),
    path(f"{GAME}/replay", views.ReplayView.as_view(), name="replay"),
    path(f"{GAME}/export", views.ExportView.as_view(), name="export"),
    path("lobby", campaign_views.LobbyView.as_view(), name="lobby"),
    path("campaigns", campaign_views.CampaignsView.as_view(), name="campaigns"),
    path(f"{CAMPAIGN}", campaign_views.CampaignView.as_view(), name="campaign"),
    path(f"{CAMPAIGN}/join", campaign_views.CampaignJoinView.as_view(), name="campaign_join"),
    path(f"{CAMPAIGN}/leave", campaign_views.CampaignLeaveView.as_view(), name="campaign_leave"),
    path(
        f"{CAMPAIGN}/seats/<str:seat>/remove",
        campaign_views.CampaignRemoveSeatView.as_view(),
        name="campaign_remove_seat",
    ),
    path(f"{CAMPAIGN}/bots", campaign_views.CampaignBotsView.as_view(), name="campaign_bots"),
    path(f"{CAMPAIGN}/start", campaign_views.CampaignStartView.as_view(), name="campaign_start"),
    path(f"{CAMPAIGN}/decision", campaign_views.CampaignDecisionView.as_view(), name="campaign_decision"),
    path(f"{CAMPAIGN}/moves", campaign_views.CampaignMovesView.as_view(), name="campaign_moves"),
    path(
        f"{CAMPAIGN}/events",
        streams.long_polled(campaign_views.CampaignEventsView, streams.CAMPAIGN),
        name="campaign_events",
    ),
    path(f"{CAMPAIGN}/stream", streams.CampaignStreamView.as_view(), name="campaign_stream"),
    path(
        f"{CAMPAIGN}/stream-ticket",
        streams.CampaignStreamTicketView.as_view(),
        name="campaign_stream_ticket",
    ),
    path(f"{CAMPAIGN}/export", campaign_views.CampaignExportView.as_view(), name="campaign_export"),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"^.*$", not_found),
]
