"""send_smtp over implicit TLS (smtps://) and STARTTLS with AUTH, against aiosmtpd with a
throwaway self-signed certificate (made with the openssl binary; skipped without it)."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from pbem.mail.listener import free_port
from pbem.mail.outbound import compose
from pbem.mail.transport import PermanentMailError, TransientMailError, send_smtp


class SinkHandler:
    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(bytes(envelope.original_content or envelope.content))
        return "250 OK"


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("no openssl binary to make a test certificate")
    d = tmp_path_factory.mktemp("tls")
    key, crt = d / "key.pem", d / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(crt), "-days", "2", "-subj", "/CN=localhost"],
                   check=True, capture_output=True)
    return crt, key


def _context(cert: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*map(str, cert))
    return context


def _auth(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    ok = data.login == b"pbem" and data.password == b"p@ss word"
    return AuthResult(success=ok)


def _msg():
    return compose(sender="orders@pbem.test", to="p@example.org", subject="s", text="t\n",
                   message_id_domain="pbem.test", message_id="<tls@pbem.test>")


def test_smtps_with_self_signed_certificate(cert):
    handler = SinkHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port,
                            ssl_context=_context(cert))
    controller.start()
    try:
        with pytest.raises(TransientMailError):  # not trusted without insecure=1
            send_smtp(f"smtps://127.0.0.1:{port}", _msg(), timeout=5)
        send_smtp(f"smtps://127.0.0.1:{port}?insecure=1", _msg(), timeout=5)
    finally:
        controller.stop()
    assert len(handler.received) == 1


def test_starttls_and_auth(cert):
    handler = SinkHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port,
                            tls_context=_context(cert), require_starttls=True,
                            authenticator=_auth, auth_require_tls=True)
    controller.start()
    try:
        base = f"127.0.0.1:{port}?starttls=1&insecure=1"
        send_smtp(f"smtp://pbem:p%40ss%20word@{base}", _msg(), timeout=5)
        # (a wrong password is not tried here: aiosmtpd 1.4 never answers a failed AUTH
        # PLAIN, so the client times out; 5xx -> permanent is tested in test_smtp.py)
        with pytest.raises(PermanentMailError):  # 530 STARTTLS required
            send_smtp(f"smtp://127.0.0.1:{port}", _msg(), timeout=5)
    finally:
        controller.stop()
    assert len(handler.received) == 1
