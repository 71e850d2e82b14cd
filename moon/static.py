"""WhiteNoise's middleware (the static assets of the admin and the API docs), sync and async
alike: with every middleware able to run on the event loop, Django reaches an async view (the
health check) under ASGI with no thread, and a sync view in its thread as before."""

from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest
from whitenoise.middleware import WhiteNoiseMiddleware

from moon import both_ways


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any = None, **kwargs: Any) -> None:
        super().__init__(get_response, **kwargs)
        self.asynchronous = both_ways.serves_async(self, get_response)

    def __call__(self, request: HttpRequest) -> Any:
        if self.asynchronous:
            return self._acall(request)
        return super().__call__(request)

    async def _acall(self, request: HttpRequest) -> Any:
        if self.autorefresh:  # DEBUG: the files are looked for on disk at each request
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve)(static_file, request)
        return await self.get_response(request)
