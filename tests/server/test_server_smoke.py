from __future__ import annotations

import httpx


def test_health(client: httpx.Client) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200, r.text
    r = client.post("/api/register", json={"nickname": "Đức Anh", "password": "mật khẩu 123"})
    assert r.status_code == 201, r.text
    print(r.json(), r.headers)
    r = client.get("/api/me")
    print(r.json())
