"""Real servers on loopback for the mail tests: an aiosmtpd relay sink and a private Dovecot.

Dovecot: the binary is ``$PBEM_DOVECOT`` if set, else ``dovecot`` on PATH, else
``/usr/sbin/dovecot`` (where Debian's dovecot-imapd puts it). Missing binary: the Dovecot
tests fail when ``CI=true`` and are skipped otherwise. Set-up follows
``../shared/howto/dovecot-on-loopback.md``: a private config in a temporary folder, a
free port, no system files touched. With an ``openssl`` binary it also gets a throwaway
self-signed certificate and an imaps listener (the TLS tests skip without one).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from pbem.mail.listener import free_port

IMAP_USER = "orders"
IMAP_PASSWORD = "s3cret pass"  # a space: the URL must quote it


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes


@dataclass
class SinkHandler:
    received: list[Received] = field(default_factory=list)
    refuse_with: str | None = None  # e.g. "451 4.3.0 try later" or "550 5.1.1 no such user"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if self.refuse_with:
            return self.refuse_with
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos),
                                      bytes(envelope.original_content or envelope.content)))
        return "250 OK"


class SmtpSink:
    """A real SMTP relay on loopback that keeps what it receives; can be stopped/started."""

    def __init__(self) -> None:
        self.handler = SinkHandler()
        self.host = "127.0.0.1"
        self.port = free_port()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    @property
    def received(self) -> list[Received]:
        return self.handler.received

    def start(self) -> None:
        self.controller = Controller(self.handler, hostname=self.host, port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    sink = SmtpSink()
    sink.start()
    try:
        yield sink
    finally:
        sink.stop()


def dovecot_binary() -> str | None:
    candidates = [os.environ.get("PBEM_DOVECOT"), shutil.which("dovecot"), "/usr/sbin/dovecot"]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def _need_dovecot() -> str:
    binary = dovecot_binary()
    if binary is None:
        msg = "no dovecot binary (apt-get install -y dovecot-imapd, or set PBEM_DOVECOT)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(msg)
        pytest.skip(msg)
    return binary


@dataclass
class Dovecot:
    host: str
    port: int
    root: Path
    tls_port: int | None = None  # implicit TLS (imaps), when openssl made a certificate

    def url(self, folder: str = "") -> str:
        from urllib.parse import quote
        path = f"/{quote(folder)}" if folder else ""
        return (f"imap://{IMAP_USER}:{quote(IMAP_PASSWORD, safe='')}@{self.host}:{self.port}"
                f"{path}")

    def client(self) -> Any:
        from imapclient import IMAPClient
        client = IMAPClient(self.host, port=self.port, ssl=False, timeout=10)
        client.login(IMAP_USER, IMAP_PASSWORD)
        return client


def _wait_port(host: str, port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"dovecot did not open {host}:{port}")


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    binary = _need_dovecot()
    # Not under pytest's tmp dir: that is mode 0700, and Dovecot's auth and mail processes
    # run as other users that must reach the folder.
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    port = free_port()
    for sub in ("run", "state", "mail"):
        (root / sub).mkdir()
    (root / "users").write_text(f"{IMAP_USER}:{{PLAIN}}{IMAP_PASSWORD}\n")
    if os.geteuid() == 0:
        uid = gid = 65534  # Dovecot refuses uid 0 for mail users
        own = ""
    else:  # an unprivileged run: everything as ourselves
        import grp
        import pwd
        uid, gid = os.getuid(), os.getgid()
        me, group = pwd.getpwuid(uid).pw_name, grp.getgrgid(gid).gr_name
        own = (f"default_login_user = {me}\ndefault_internal_user = {me}\n"
               f"default_internal_group = {group}\n")
    conf = root / "dovecot.conf"
    conf.write_text(f"""\
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
{own}passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  inet_listener imap {{
    port = {port}
  }}
}}
""")
    tls_port = None
    if shutil.which("openssl"):  # a self-signed certificate: imaps and STARTTLS too
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                        str(root / "key.pem"), "-out", str(root / "cert.pem"), "-days", "2",
                        "-subj", "/CN=localhost"], check=True, capture_output=True)
        tls_port = free_port()
        text = conf.read_text().replace("ssl = no\n", (
            f"ssl = yes\nssl_cert = <{root}/cert.pem\nssl_key = <{root}/key.pem\n"))
        text += f"service imap-login {{\n  inet_listener imaps {{\n    port = {tls_port}\n" \
                "    ssl = yes\n  }\n}\n"
        conf.write_text(text)
    root.chmod(0o755)
    if os.geteuid() == 0:
        os.chown(root / "mail", uid, gid)
    # Dovecot daemonises: its output goes to a file, or run() would wait on the open pipe.
    with open(root / "start.log", "wb") as out:
        proc = subprocess.run([binary, "-c", str(conf)], stdout=out, stderr=out,
                              stdin=subprocess.DEVNULL, timeout=30)
    if proc.returncode != 0:
        raise RuntimeError(f"dovecot failed to start: {(root / 'start.log').read_text()}")
    try:
        _wait_port("127.0.0.1", port)
        if tls_port:
            _wait_port("127.0.0.1", tls_port)
        yield Dovecot("127.0.0.1", port, root, tls_port)
    finally:
        pid_file = root / "run" / "master.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().split()[0])
            try:
                os.kill(pid, 15)
            except ProcessLookupError:
                pass
            for _ in range(100):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
        shutil.rmtree(root, ignore_errors=True)
