"""The mail layer's database-free parts: reading received mail, reply tokens, composing
outgoing mail, and the transports (SMTP out, SMTP listener, IMAP, maildir).

Nothing here touches the store: callers pass callbacks (``on_message``) that store raw
bytes, and an outbox (in ``pbem.store``) that calls ``send_smtp`` and ``next_attempt``.
"""

from pbem.mail.backoff import next_attempt
from pbem.mail.inbound import InboundMail, read_message, should_reply
from pbem.mail.outbound import Attachment, Thread, compose, thread_root_id
from pbem.mail.tokens import check_token, find_token, make_token, reply_address
from pbem.mail.transport import (
    MaildirSink,
    MailError,
    PermanentMailError,
    SmtpListener,
    TransientMailError,
    fetch_imap,
    fetch_maildir,
    send_smtp,
)

__all__ = [
    "InboundMail", "read_message", "should_reply",
    "make_token", "check_token", "reply_address", "find_token",
    "Attachment", "Thread", "compose", "thread_root_id",
    "send_smtp", "MaildirSink", "fetch_imap", "fetch_maildir", "SmtpListener",
    "MailError", "TransientMailError", "PermanentMailError",
    "next_attempt",
]
