"""The mail layer's database-free parts: reading received mail, reply tokens, composing
outgoing mail, and the transports (SMTP out, SMTP listener, IMAP, maildir).

Nothing here touches the store: the caller passes ``on_message`` callbacks that store raw
bytes, and the outbox (in ``pbem.store``) calls ``send_smtp`` and ``next_attempt``.

Wiring, inbound (every path ends in the same two calls)::

    def on_message(raw: bytes) -> None:          # store first, in its own transaction
        mail = read_message(raw, max_bytes=limit)
        store_raw(raw, message_id=mail.message_id)   # unique on message_id: a duplicate
                                                     # is stored once, applied once
    # later (or right after), per stored mail:
    mail = read_message(raw)
    if mail.kind == "bounce":  record the bounce for the seat whose report had
                               mail.bounce_of as Message-ID (only a mail we sent counts)
    elif mail.kind == "orders":
        claim = peek_token(mail.token)  # then the holder's secret: check_token(...)
        for text in mail.order_texts: env = parse_envelope(text) ...  # first with a GAME
    if should_reply(mail, own_addresses=[order_address]): queue the echo or mail.reason

    pipe:     pbem mail receive FILE|-  -> on_message(bytes)
    maildir:  fetch_maildir(path, on_message)
    IMAP:     fetch_imap(PBEM_IMAP, on_message=on_message, move_to="pbem-processed")
    SMTP:     SmtpListener("127.0.0.1", 2525, on_message, max_bytes=limit).start()

Outbound: ``compose(...)`` -> store ``msg.as_bytes()`` in the outbox keyed by its
Message-ID (``make_message_id(domain, "report", game, seat, step)`` is deterministic, so a
report is never queued twice) -> ``send_smtp(PBEM_SMTP, raw)``, or
``MaildirSink(PBEM_MAILDIR).deliver(raw)`` without a relay. On TransientMailError retry at
``next_attempt(attempts, now)``; on PermanentMailError mark the mail failed.
Threads: the welcome mail's Message-ID is ``thread_root_id(game, seat, domain)``; every
later mail to that seat passes ``thread=Thread(that id)``; a confirmation also passes
``in_reply_to=mail.message_id``. Reports set ``reply_to=reply_address(order_address,
make_token(holder_secret, game_id=..., seat=..., holder=..., step=..., generation=...))``
(TokenTooLong: use the plain address).
"""

from pbem.mail.backoff import next_attempt
from pbem.mail.inbound import InboundMail, read_message, should_reply
from pbem.mail.outbound import (
    Attachment,
    Thread,
    compose,
    make_message_id,
    reply_subject,
    thread_root_id,
)
from pbem.mail.tokens import (
    TokenClaim,
    TokenTooLong,
    check_token,
    find_token,
    make_token,
    peek_token,
    reply_address,
)
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
    "make_token", "check_token", "reply_address", "find_token", "peek_token", "TokenTooLong",
    "TokenClaim",
    "Attachment", "Thread", "compose", "thread_root_id", "make_message_id", "reply_subject",
    "send_smtp", "MaildirSink", "fetch_imap", "fetch_maildir", "SmtpListener",
    "MailError", "TransientMailError", "PermanentMailError",
    "next_attempt",
]
