"""GET /api/v1/health with PostgreSQL, Redis and a real worker, and with the worker gone."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from moon import health
from tests.services.conftest import Worker

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_health_is_ok_when_database_broker_and_worker_answer(worker: Worker) -> None:
    cache.delete(health.WORKER_CACHE_KEY)
    response = APIClient().get("/api/v1/health")
    assert response.status_code == 200, response.content
    checks = response.json()["checks"]
    assert checks["database"] == {"status": "ok", "detail": "postgresql answered"}
    assert checks["broker"]["status"] == "ok"
    assert checks["worker"]["status"] == "ok"
    assert worker.nodename in checks["worker"]["detail"]


def test_health_is_503_naming_the_worker_when_none_answers(worker: Worker) -> None:
    worker.stop()
    cache.delete(health.WORKER_CACHE_KEY)  # what the last ping saw is kept for a few seconds
    response = APIClient().get("/api/v1/health")
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["detail"] == "down: worker"
    assert body["checks"]["broker"]["status"] == "ok"
    assert body["checks"]["worker"]["status"] == "down"
    # (the `worker` fixture starts it again for the next test)
