"""Django's messages middleware (the admin's notices), kept off the API: no API answer carries a
message, and setting up their storage for every request cost more than the middlewares around it
together (bench/server.py). Under /api/ the request goes straight on, sync or async alike."""

from typing import Any

from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest

API = "/api/"


class MessagesOutsideTheAPI(MessageMiddleware):
    def __call__(self, request: HttpRequest) -> Any:
        if request.path_info.startswith(API):
            return self.get_response(request)
        return super().__call__(request)
