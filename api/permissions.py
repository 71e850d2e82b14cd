"""Who may call what. Seat checks need the game, so the selectors and services make them
(`not_seated`, `not_creator`); here only the coarse, per-endpoint rules live."""

from rest_framework.permissions import AllowAny, IsAuthenticated

__all__ = ["AllowAny", "IsAuthenticated", "Public", "SignedIn"]

Public = AllowAny
SignedIn = IsAuthenticated
