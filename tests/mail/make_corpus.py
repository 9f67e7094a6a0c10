"""Writes the hostile-mail corpus: tests/mail/corpus/generated/*.eml and expectations.json.

Run it after changing it: ``python tests/mail/make_corpus.py``; commit the files it writes.
The handcrafted real-world-shaped bounces and auto-replies live in corpus/handcrafted/ and
their expectations are in HANDCRAFTED below. A file's name starts with the kind that
``read_message`` must report; the table adds game, seat, reply and bounce details.

Deterministic: fixed dates, fixed Message-IDs, no random.
"""

from __future__ import annotations

import base64
import json
import quopri
from pathlib import Path

HERE = Path(__file__).parent / "corpus"
OUT = HERE / "generated"
OWN = "orders@pbem.test"

EXPECT: dict[str, dict] = {}
FILES: dict[str, bytes] = {}


def add(name: str, raw: bytes | str, **expect) -> None:
    kind = name.split("__", 1)[0]
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") if expect.pop(
        "crlf", True) else raw
    fname = f"{name}.eml"
    assert fname not in FILES, fname
    FILES[fname] = raw
    expect.setdefault("reply", kind in ("orders", "oversize", "empty"))
    EXPECT[f"generated/{fname}"] = {"kind": kind, **expect}


def head(n: str, *, sender: str = "Béla Kovács <bela@example.org>", to: str = OWN,
         subject: str = "orders", extra: str = "", msgid: str | None = None) -> str:
    from email.header import Header
    enc_from = sender
    if any(ord(c) > 127 for c in sender):
        name, addr = sender.rsplit("<", 1)
        enc_from = f"{Header(name.strip(), 'utf-8').encode()} <{addr}"
    enc_subject = subject if subject.isascii() else Header(subject, "utf-8").encode()
    mid = msgid if msgid is not None else f"<{n}@example.org>"
    lines = [f"From: {enc_from}", f"To: {to}", f"Subject: {enc_subject}",
             "Date: Sun, 01 Mar 2026 12:00:00 +0100"]
    if mid:
        lines.append(f"Message-ID: {mid}")
    lines.append("MIME-Version: 1.0")
    if extra:
        lines.append(extra.rstrip("\n"))
    return "\n".join(lines) + "\n"


def orders(game: str = "gomor-1848", seat: str = "hungary", body: str = "move Kassa Gömör\n"
           ) -> str:
    return f"GAME {game}\nSEAT {seat}\nPASSWORD hunter2\nTURN 3\n{body}END\n"


def qp(text: str, charset: str = "utf-8") -> bytes:
    return quopri.encodestring(text.encode(charset).replace(b"\n", b"\r\n"))


def b64(data: bytes) -> bytes:
    return base64.encodebytes(data)


# ---------------------------------------------------------------- orders, many shapes
SEATS = ["hungary", "austria", "croatia", "serbia", "slovakia", "poland"]
GAMES = {"utf-8": "Gömör-1848", "iso-8859-2": "Kőszeg-1532", "windows-1250": "Kőszeg-1532",
         "iso-8859-1": "Gömör-1848", "cp1252": "Gömör-1848", "koi8-r": "gomor-1848"}
STRUCTURES = ["plain", "alternative", "html", "attachment", "attachment-octet", "mixed-body"]
ENCODINGS = ["8bit", "quoted-printable", "base64"]


def encode_body(text: str, charset: str, cte: str) -> tuple[str, bytes]:
    data = text.encode(charset, errors="replace")
    if cte == "quoted-printable":
        return cte, quopri.encodestring(data)
    if cte == "base64":
        return cte, b64(data)
    return "8bit", data


def part(ctype: str, text: str, charset: str, cte: str, extra: str = "") -> bytes:
    cte, data = encode_body(text, charset, cte)
    hdr = f"Content-Type: {ctype}; charset=\"{charset}\"\nContent-Transfer-Encoding: {cte}\n"
    return (hdr + extra + "\n").encode() + data + b"\n"


def multipart(subtype: str, parts: list[bytes], boundary: str) -> bytes:
    out = f"Content-Type: multipart/{subtype}; boundary=\"{boundary}\"\n\n".encode()
    out += b"This is a multi-part message in MIME format.\n"
    for p in parts:
        out += f"--{boundary}\n".encode() + p
    return out + f"--{boundary}--\n".encode()


def shaped(n: int, charset: str, structure: str, cte: str) -> None:
    game = GAMES[charset]
    seat = SEATS[n % len(SEATS)]
    text = ("Hello GM, my orders:\n\n" + orders(game, seat, "move Kassa “Gömör”\u00a0now\n")
            + "\n-- \nBéla\n")
    html = ("<html><body><p>Hello GM, my orders:</p><p>"
            + "<br>".join(orders(game, seat).strip().split("\n"))
            + "</p><p>Béla</p></body></html>")
    name = f"orders__{n:03d}_{charset}_{structure}_{cte}"
    h = head(name, subject=f"orders {game}").encode()
    if structure == "plain":
        body = part("text/plain", text, charset, cte)
    elif structure == "alternative":
        body = multipart("alternative", [part("text/plain", text, charset, cte),
                                         part("text/html", html, charset, cte)], f"alt{n}")
    elif structure == "html":
        body = part("text/html", html, charset, cte)
    elif structure == "attachment":
        body = multipart("mixed", [
            part("text/plain", "Orders attached.\n", "us-ascii", "7bit"),
            part("text/plain", orders(game, seat), charset, cte,
                 "Content-Disposition: attachment; filename=\"orders.txt\"\n")], f"mix{n}")
    elif structure == "attachment-octet":
        cte2, data = encode_body(orders(game, seat), charset, "base64")
        att = (b"Content-Type: application/octet-stream; name=\"turn3.ord\"\n"
               b"Content-Transfer-Encoding: base64\n"
               b"Content-Disposition: attachment; filename=\"turn3.ord\"\n\n" + data)
        body = multipart("mixed", [part("text/plain", "See attachment.\n", "us-ascii", "7bit"),
                                   att], f"oct{n}")
        if charset in ("iso-8859-2", "windows-1250"):
            game = None  # no charset on an octet-stream: "ő" becomes cp1252's "õ"
    else:  # mixed-body: alternative body + an unrelated image attachment
        img = (b"Content-Type: image/png; name=\"x.png\"\nContent-Transfer-Encoding: base64\n"
               b"Content-Disposition: attachment; filename=\"x.png\"\n\n"
               + b64(b"\x89PNG\r\n\x1a\n" + bytes(range(256))))
        alt = multipart("alternative", [part("text/plain", text, charset, cte),
                                        part("text/html", html, charset, cte)], f"in{n}")
        body = multipart("mixed", [alt, img], f"out{n}")
    expect: dict = {"seat": seat}
    if game is not None:
        expect["game"] = game
    else:
        expect["game_re"] = "^K.szeg-1532$"
    add(name, h + body, **expect)


n = 0
for charset in GAMES:
    for structure in STRUCTURES:
        cte = ENCODINGS[n % 3]
        if charset == "koi8-r" and structure in ("attachment-octet",):
            cte = "base64"
        shaped(n, charset, structure, cte)
        n += 1
# a second pass with the other transfer encodings for the common cases
for charset in ("utf-8", "iso-8859-2", "windows-1250"):
    for structure in ("plain", "alternative", "html"):
        for cte in ENCODINGS:
            if ENCODINGS.index(cte) == (list(GAMES).index(charset) * 6
                                        + STRUCTURES.index(structure)) % 3:
                continue  # already written above
            shaped(n, charset, structure, cte)
            n += 1

# ---------------------------------------------------------------- orders, one-off shapes
add("orders__ascii_minimal", head("m1") + "\n" + orders())
add("orders__player_synonym_lowercase",
    head("m2") + "\ngame: gomor-1848\nplayer: austria\npassword: x#y\nhold Pest\nend\n",
    game="gomor-1848", seat="austria")
add("orders__undeclared_8bit_latin2",
    head("m3").encode() + b"Content-Type: text/plain\nContent-Transfer-Encoding: 8bit\n\n"
    + orders("Gömör-1848").encode("iso-8859-2"), game="Gömör-1848", seat="hungary")
add("orders__utf8_declared_latin1",
    head("m4").encode() + b"Content-Type: text/plain; charset=iso-8859-1\n\n"
    + orders("Kőszeg-1532").encode("utf-8"), game="Kőszeg-1532", seat="hungary")
add("orders__unknown_charset",
    head("m5").encode() + b"Content-Type: text/plain; charset=x-no-such-charset\n\n"
    + orders("Kőszeg-1532").encode("iso-8859-2"), game_re="^K.szeg-1532$", seat="hungary")
add("orders__mixed_charsets",
    (head("m6", subject="Приказы").encode()
     + multipart("mixed", [
         part("text/plain", "Приказы во вложении\n", "koi8-r", "8bit"),
         part("text/plain", orders("Kőszeg-1532", "croatia"), "iso-8859-2", "quoted-printable",
              "Content-Disposition: attachment; filename=\"orders.txt\"\n")], "mx6")),
    game="Kőszeg-1532", seat="croatia")
add("orders__nbsp_smart_quotes",
    head("m7") + "\nGAME\u00a0gomor-1848\nSEAT\u00a0hungary\nPASSWORD hunter2\n"
    "say \u201cHello\u201d \u2014 it\u2019s me\u2026\nEND\n", game="gomor-1848", seat="hungary")
add("orders__qp_leftovers_no_header",
    head("m8") + "\nGAME gomor-1848=20\nSEAT hungary\nmove Kassa G=C3=B6m=C3=B6r and a very lo=\n"
    "ng line\nEND\n", game="gomor-1848", seat="hungary")
add("orders__text_before_and_signature_after_end",
    head("m9") + "\nDear GM,\n\nhere are my orders, sorry for the delay.\n\n" + orders()
    + "\nBest regards,\nBéla\n--\nSent from my phone\n", game="gomor-1848", seat="hungary")
add("orders__signature_without_end",
    head("m10") + "\nGAME gomor-1848\nSEAT hungary\nPASSWORD x\nhold Pest\n\n-- \nBéla Kovács\n"
    "+36 1 234 5678\n", game="gomor-1848", seat="hungary")
add("orders__quoted_reply_bottom",
    head("m11", subject="Re: Gömör 1848, step 3", extra="In-Reply-To: <report-3@pbem.test>\n"
         "References: <root@pbem.test> <report-3@pbem.test>")
    + "\n" + orders(seat="austria") + "\nOn Sun, 1 Mar 2026 at 10:00, PBEM <orders@pbem.test> "
    "wrote:\n> GAME gomor-1848\n> SEAT hungary\n> PASSWORD\n> TURN 3\n> hold Pest\n",
    game="gomor-1848", seat="austria")
add("orders__quoted_reply_top_post_no_end",
    head("m12", subject="Re: report") + "\nGAME gomor-1848\nSEAT serbia\nPASSWORD x\n"
    "hold Novi Sad\n\nOn Sun, 1 Mar 2026, PBEM <orders@pbem.test> wrote:\n> GAME old-game\n"
    "> SEAT hungary\n", game="gomor-1848", seat="serbia")
add("orders__outlook_original_message",
    head("m13", subject="RE: report") + "\nGAME gomor-1848\nSEAT poland\nPASSWORD x\nhold\n\n"
    "-----Original Message-----\nFrom: PBEM\nGAME other-game\nSEAT hungary\n",
    game="gomor-1848", seat="poland")
add("orders__html_only_gmail_quote",
    head("m14", extra="Content-Type: text/html; charset=UTF-8")
    + "\n<div dir=\"ltr\">GAME gomor-1848<br>SEAT slovakia<br>PASSWORD x<br>hold Kassa<br>"
    "END</div><br><div class=\"gmail_quote\"><div>On Sun wrote:</div><blockquote>"
    "GAME old-game<br>SEAT hungary</blockquote></div>", game="gomor-1848", seat="slovakia")
add("orders__html_only_table_and_entities",
    head("m15", extra="Content-Type: text/html; charset=UTF-8")
    + "\n<html><head><style>p{color:red}</style><script>GAME evil</script></head><body>"
    "<table><tr><td>GAME&nbsp;gomor-1848</td></tr><tr><td>SEAT&#160;hungary</td></tr>"
    "<tr><td>say &ldquo;hi&rdquo; &amp; bye</td></tr></table></body></html>",
    game="gomor-1848", seat="hungary")
add("orders__html_blockquote_old_orders",
    head("m16", extra="Content-Type: text/html; charset=UTF-8")
    + "\n<p>GAME gomor-1848</p><p>SEAT austria</p><blockquote><p>GAME other</p>"
    "<p>SEAT hungary</p></blockquote>", game="gomor-1848", seat="austria")
add("orders__format_flowed",
    head("m17", extra="Content-Type: text/plain; charset=utf-8; format=flowed")
    + "\nGAME gomor-1848\nSEAT hungary\nPASSWORD x\nsay this is a long line that the \n"
    "client wrapped\nEND\n", game="gomor-1848", seat="hungary")
add("orders__outlook_html_reply_unmarked_original",
    head("m35", subject="RE: step 3", extra="Content-Type: text/html; charset=utf-8")
    + '\n<html><body><div class="WordSection1"><p class="MsoNormal">GAME gomor-1848<o:p></o:p>'
    '</p><p class="MsoNormal">SEAT croatia</p><p class="MsoNormal">hold Zagreb</p></div>'
    '<div id="divRplyFwdMsg"><p><b>From:</b> PBEM &lt;orders@pbem.test&gt;<br><b>Sent:</b> '
    'Sunday<br></p></div><div><p>GAME gomor-1848</p><p>SEAT hungary</p><p>TURN 3</p>'
    '<p>hold Pest</p></div></body></html>\n', game="gomor-1848", seat="croatia",
    body_lacks="Pest")
add("orders__outlook_plain_from_sent_block",
    head("m36", subject="RE: step 3") + "\nGAME gomor-1848\nSEAT croatia\nhold Zagreb\n\n"
    "From: PBEM <orders@pbem.test>\nSent: Sunday, March 1, 2026 12:05 PM\nTo: Istvan\n"
    "Subject: step 3\n\nGAME gomor-1848\nSEAT hungary\nhold Pest\n",
    game="gomor-1848", seat="croatia", body_lacks="Pest")
add("orders__outlook_html_border_top_original",
    head("m37", subject="RE: step 3", extra="Content-Type: text/html; charset=utf-8")
    + '\n<p class="MsoNormal">GAME gomor-1848</p><p class="MsoNormal">SEAT croatia</p>'
    '<div style="border:none;border-top:solid #E1E1E1 1.0pt"><p class="MsoNormal"><b>From:'
    '</b> PBEM &lt;orders@pbem.test&gt;<br><b>Sent:</b> Sunday<br><b>To:</b> Istvan<br>'
    '</p></div><p>GAME gomor-1848</p><p>SEAT hungary</p><p>hold Pest</p>\n',
    game="gomor-1848", seat="croatia", body_lacks="Pest")
add("orders__wrong_game", head("m18") + "\n" + orders("no-such-game", "hungary"),
    game="no-such-game", seat="hungary")
add("orders__wrong_game_other_ruleset", head("m19") + "\n" + orders("helios-7", "player1"),
    game="helios-7", seat="player1")
add("orders__replay_first", head("replay", msgid="<replay-1@example.org>") + "\n" + orders(),
    game="gomor-1848", seat="hungary", message_id="<replay-1@example.org>")
add("orders__replay_second_same_id",
    head("replay", msgid="<replay-1@example.org>") + "\n" + orders(),
    game="gomor-1848", seat="hungary", message_id="<replay-1@example.org>")
add("orders__replay_old_turn",
    head("replay-old", extra="Date: Sun, 01 Feb 2026 12:00:00 +0100")
    + "\n" + orders().replace("TURN 3", "TURN 1"), game="gomor-1848", seat="hungary")
add("orders__no_message_id", head("nomid", msgid="") + "\n" + orders(),
    game="gomor-1848", seat="hungary", synthesised_id=True)
add("orders__token_plus_address",
    head("m20", to="PBEM <orders+mfrgg2lomfrgg2lomfrgg2lo@pbem.test>") + "\nhold Pest\n",
    token="mfrgg2lomfrgg2lomfrgg2lo")
add("orders__token_in_delivered_to",
    "Delivered-To: ORDERS+MFRGG2LOMFRGG2LOMFRGG2LO@pbem.test\n" + head("m21")
    + "\nSTATUS\n", token="mfrgg2lomfrgg2lomfrgg2lo")
add("orders__control_words_only", head("m22") + "\nGAME gomor-1848\nSEAT hungary\nPASSWORD x\n"
    "WAIT\nSTATUS\n", game="gomor-1848", seat="hungary")
add("orders__no_envelope_at_all", head("m23") + "\nHi, how do I join a game?\n")
add("orders__cr_only_line_endings",
    (head("m24") + "\n" + orders()).replace("\n", "\r").encode(), crlf=False,
    game="gomor-1848", seat="hungary")
add("orders__lf_only_line_endings", (head("m25") + "\n" + orders()).encode(), crlf=False,
    game="gomor-1848", seat="hungary")
add("orders__bom_and_zero_width",
    head("m26") + "\n\ufeffGAME gomor-1848\u200b\nSEAT hungary\nEND\n",
    game="gomor-1848", seat="hungary")
add("orders__two_attachments",
    head("m27").encode() + multipart("mixed", [
        part("text/plain", "two files\n", "utf-8", "7bit"),
        part("text/plain", orders(seat="hungary"), "utf-8", "base64",
             "Content-Disposition: attachment; filename=\"a.txt\"\n"),
        part("text/plain", orders(seat="austria"), "utf-8", "base64",
             "Content-Disposition: attachment; filename=\"b.txt\"\n")], "two"),
    game="gomor-1848", seat="hungary")
add("orders__big_attachment_under_limit",
    head("m28").encode() + multipart("mixed", [
        part("text/plain", orders(), "utf-8", "7bit"),
        b"Content-Type: image/png\nContent-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=\"big.png\"\n\n"
        + b64(b"\x00" * 600_000)], "big"), game="gomor-1848", seat="hungary")
add("orders__forwarded_rfc822_not_read",
    head("m29").encode() + multipart("mixed", [
        part("text/plain", orders(seat="serbia"), "utf-8", "7bit"),
        b"Content-Type: message/rfc822\n\n" + (head("old") + "\n" + orders(seat="hungary"))
        .encode()], "fwd"), game="gomor-1848", seat="serbia")
add("orders__multipart_missing_final_boundary",
    head("m30", extra="Content-Type: multipart/mixed; boundary=\"zz\"")
    + "\n--zz\nContent-Type: text/plain\n\n" + orders(), game="gomor-1848", seat="hungary")
add("orders__truncated_base64",
    head("m31", extra="Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64")
    .encode() + b"\n" + b64(orders().encode())[:-7], game="gomor-1848", seat="hungary")
add("orders__header_line_without_colon",
    "From: bela@example.org\nThis line is not a header\nSubject: x\n\n" + orders(),
    game=None, seat=None)
add("orders__very_long_header",
    head("m32", extra="X-Junk: " + "a" * 20000) + "\n" + orders(), game="gomor-1848",
    seat="hungary")
add("orders__nul_bytes_in_body",
    (head("m33") + "\n" + orders()).encode().replace(b"hold", b"ho\x00ld") + b"\x00\x00",
    game="gomor-1848", seat="hungary")
add("orders__invalid_date",
    head("m34").replace("Sun, 01 Mar 2026 12:00:00 +0100", "yesterday-ish 99:99")
    + "\n" + orders(), game="gomor-1848", seat="hungary")

# ---------------------------------------------------------------- header injection
add("orders__inject_encoded_crlf_subject",
    head("i1").replace("Subject: orders", "Subject: =?utf-8?q?hi=0D=0ABcc=3A_victim=40x.org?=")
    + "\n" + orders(), game="gomor-1848", seat="hungary", subject_has="Bcc: victim@x.org")
add("orders__inject_encoded_crlf_from_name",
    head("i2", sender="=?utf-8?q?Eve=0D=0ABcc=3A_victim=40x.org?= <eve@example.org>")
    + "\n" + orders(), game="gomor-1848", seat="hungary", sender="eve@example.org")
add("orders__inject_many_recipients",
    head("i3", to=", ".join(f"r{i}@example.org" for i in range(300))) + "\n" + orders(),
    game="gomor-1848", seat="hungary")
add("orders__inject_reply_to_with_crlf",
    head("i4", extra="Reply-To: =?utf-8?b?" + base64.b64encode(
        b"a@x.org\r\nBcc: v@x.org").decode() + "?=") + "\n" + orders(),
    game="gomor-1848", seat="hungary")
add("orders__inject_two_from_addresses",
    head("i5", sender="bela@example.org, eve@example.org") + "\n" + orders(),
    game="gomor-1848", seat="hungary", sender="bela@example.org")
add("orders__inject_password_in_subject",
    head("i6", subject="GAME gomor-1848 PASSWORD hunter2\r\nX-Evil: 1") + "\n" + orders(),
    game="gomor-1848", seat="hungary")

# ---------------------------------------------------------------- malformed and empty
add("malformed__no_headers_binary", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, crlf=False)
add("malformed__empty_file", b"", crlf=False)
add("malformed__no_from", "To: orders@pbem.test\nSubject: x\n\n" + orders(), reply=False)
add("malformed__from_not_an_address", head("x1", sender="not an address") + "\n" + orders())
add("malformed__from_with_newline_garbage",
    head("x2", sender="<bela@exa mple.org>") + "\n" + orders())
add("malformed__only_garbage_text", b"\xff\xfe\x00\x00garbage\n\n\x00\x01", crlf=False)
add("malformed__multipart_no_boundary_no_text",
    head("x3", extra="Content-Type: multipart/mixed") + "\n\x01\x02\x03\n", reply=True)
add("malformed__deep_nesting",
    head("x4", extra="Content-Type: multipart/mixed; boundary=\"b0\"") + "\n"
    + "".join(f"--b{i}\nContent-Type: multipart/mixed; boundary=\"b{i + 1}\"\n\n"
              for i in range(300)), reply=True)
add("empty__no_body", head("e1") + "\n")
add("empty__whitespace_body", head("e2") + "\n   \n\t\n\n")
add("empty__image_only",
    head("e3").encode() + multipart("mixed", [
        b"Content-Type: image/jpeg\nContent-Transfer-Encoding: base64\n\n"
        + b64(b"\xff\xd8\xff" + bytes(300))], "img"))
add("empty__html_only_script",
    head("e4", extra="Content-Type: text/html") + "\n<script>GAME x</script><style>p{}</style>")
add("empty__pdf_attachment_only",
    head("e5").encode() + multipart("mixed", [
        b"Content-Type: application/pdf; name=orders.pdf\nContent-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=orders.pdf\n\n"
        + b64(b"%PDF-1.4\n" + bytes(500))], "pdf"))

# ---------------------------------------------------------------- oversize
add("oversize__huge_attachment",
    head("o1").encode() + multipart("mixed", [
        part("text/plain", orders(), "utf-8", "7bit"),
        b"Content-Type: application/zip\nContent-Transfer-Encoding: base64\n"
        b"Content-Disposition: attachment; filename=\"maps.zip\"\n\n" + b64(bytes(1_700_000))],
        "huge"))
add("oversize__huge_text_body", head("o2") + "\n" + orders() + ("x" * 75 + "\n") * 8_000,
    max_bytes=500_000)

# ---------------------------------------------------------------- bounces (generated shapes)


def dsn(name: str, *, reporting: str, sender: str, subject: str, human: str,
        recipient: str, status: str, action: str = "failed", original: str = "message",
        extra: str = "") -> None:
    orig = (f"From: PBEM <orders@pbem.test>\nTo: {recipient}\nSubject: Gömör 1848, step 3\n"
            f"Message-ID: <report-3.{name}@pbem.test>\nAuto-Submitted: auto-generated\n\n"
            "Your report.\n")
    if original == "message":
        orig_part = ("Content-Type: message/rfc822\nContent-Description: Undelivered Message\n\n"
                     + orig)
    else:
        orig_part = ("Content-Type: text/rfc822-headers\nContent-Description: Undelivered "
                     "Message Headers\n\n" + orig.split("\n\n")[0] + "\n")
    raw = (f"Return-Path: <>\nFrom: {sender}\nTo: orders@pbem.test\nSubject: {subject}\n"
           f"Date: Sun, 01 Mar 2026 12:05:00 +0100\nMessage-ID: <dsn.{name}@{reporting}>\n"
           f"{extra}MIME-Version: 1.0\nContent-Type: multipart/report; "
           "report-type=delivery-status;\n boundary=\"dsnb\"\n\n"
           "This is a MIME-encapsulated message.\n\n--dsnb\nContent-Type: text/plain; "
           f"charset=us-ascii\n\n{human}\n\n--dsnb\nContent-Type: message/delivery-status\n\n"
           f"Reporting-MTA: dns; {reporting}\nArrival-Date: Sun, 1 Mar 2026 12:04:00 +0100\n\n"
           f"Final-Recipient: rfc822; {recipient}\nOriginal-Recipient: rfc822;{recipient}\n"
           f"Action: {action}\nStatus: {status}\nDiagnostic-Code: smtp; 550 {status} "
           f"User unknown\n\n--dsnb\n{orig_part}\n--dsnb--\n")
    kind = "bounce" if action == "failed" else "autoreply"
    expect = {"reply": False}
    if kind == "bounce":
        expect.update(bounce_of=f"<report-3.{name}@pbem.test>", bounced_recipient=recipient)
    add(f"{kind}__{name}", raw, **expect)


dsn("postfix_dsn", reporting="mail.example.org",
    sender="MAILER-DAEMON@mail.example.org (Mail Delivery System)",
    subject="Undelivered Mail Returned to Sender",
    human="This is the mail system at host mail.example.org.\n\nI'm sorry to have to inform "
    "you that your message could not\nbe delivered to one or more recipients.",
    recipient="gone@example.org", status="5.1.1")
dsn("postfix_dsn_headers_only", reporting="mx.example.net",
    sender="Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    subject="Undelivered Mail Returned to Sender", human="The mail system",
    recipient="nobody@example.net", status="5.1.1", original="headers")
dsn("sendmail_dsn", reporting="smtp.example.com",
    sender="Mail Delivery Subsystem <MAILER-DAEMON@smtp.example.com>",
    subject="Returned mail: see transcript for details",
    human="The original message was received at Sun, 1 Mar 2026\n\n   ----- The following "
    "addresses had permanent fatal errors -----\n<old@example.com>",
    recipient="old@example.com", status="5.1.1")
dsn("exchange_dsn", reporting="EXCH01.corp.example.com",
    sender="Microsoft Outlook <postmaster@corp.example.com>",
    subject="Undeliverable: Gömör 1848, step 3",
    human="Delivery has failed to these recipients or groups:\n\njan@corp.example.com\n"
    "The email address you entered couldn't be found.",
    recipient="jan@corp.example.com", status="5.1.10")
dsn("gmail_dsn", reporting="mail-sor-f41.google.com",
    sender="Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
    subject="Delivery Status Notification (Failure)",
    human="** Address not found **\n\nYour message wasn't delivered to nosuch@gmail.com",
    recipient="nosuch@gmail.com", status="5.1.1",
    extra="X-Failed-Recipients: nosuch@gmail.com\n")
dsn("gmail_dsn_quota", reporting="mail-sor-f41.google.com",
    sender="Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
    subject="Delivery Status Notification (Failure)",
    human="The recipient's inbox is out of storage space.",
    recipient="full@gmail.com", status="5.2.2")
dsn("postfix_delayed", reporting="mail.example.org",
    sender="MAILER-DAEMON@mail.example.org (Mail Delivery System)",
    subject="Delayed Mail (still being retried)", human="This is the mail system.",
    recipient="slow@example.org", status="4.4.1", action="delayed")
add("bounce__exim_plain",
    "Return-path: <>\nFrom: Mail Delivery System <Mailer-Daemon@mx.example.org>\n"
    "To: orders@pbem.test\nSubject: Mail delivery failed: returning message to sender\n"
    "Message-Id: <E1exim-0001@mx.example.org>\nX-Failed-Recipients: lost@example.org\n"
    "Auto-Submitted: auto-replied\n\nThis message was created automatically by mail delivery "
    "software.\n\nA message that you sent could not be delivered to one or more of its\n"
    "recipients. This is a permanent error. The following address(es) failed:\n\n"
    "  lost@example.org\n    SMTP error from remote mail server after RCPT TO:<lost@example.org>:\n"
    "    550 5.1.1 User unknown\n\n------ This is a copy of the message, including all the "
    "headers. ------\n\nFrom: PBEM <orders@pbem.test>\nTo: lost@example.org\n"
    "Subject: step 3\nMessage-ID: <report-3.exim@pbem.test>\n\nYour report.\n",
    reply=False, bounce_of="<report-3.exim@pbem.test>", bounced_recipient="lost@example.org")
add("bounce__qmail_plain",
    "Return-Path: <>\nFrom: MAILER-DAEMON@qmail.example.net\nTo: orders@pbem.test\n"
    "Subject: failure notice\nMessage-ID: <qm1@qmail.example.net>\n\nHi. This is the "
    "qmail-send program at qmail.example.net.\nI'm afraid I wasn't able to deliver your "
    "message to the following addresses.\nThis is a permanent error; I've given up. Sorry "
    "it didn't work out.\n\n<gone@qmail.example.net>:\nSorry, no mailbox here by that name. "
    "(#5.1.1)\n\n--- Below this line is a copy of the message.\n\nReturn-Path: "
    "<orders@pbem.test>\nFrom: orders@pbem.test\nMessage-ID: <report-3.qmail@pbem.test>\n"
    "Subject: step 3\n\nYour report.\n",
    reply=False, bounce_of="<report-3.qmail@pbem.test>",
    bounced_recipient="gone@qmail.example.net")
add("bounce__postmaster_no_return_path",
    "From: postmaster@example.com\nTo: orders@pbem.test\nSubject: Delivery failure\n"
    "Message-ID: <pm1@example.com>\n\nYour message could not be delivered.\n", reply=False)
add("bounce__oversize_dsn_with_original",
    "Return-Path: <>\nFrom: MAILER-DAEMON@big.example.org\nTo: orders@pbem.test\n"
    "Subject: Undelivered Mail Returned to Sender\nMessage-ID: <big-dsn@big.example.org>\n"
    "X-Failed-Recipients: big@example.org\n\nThis is a copy of the message:\n\n"
    "Message-ID: <report-9.big@pbem.test>\n\n" + ("y" * 75 + "\n") * 8_000, reply=False,
    max_bytes=500_000,
    bounce_of="<report-9.big@pbem.test>", bounced_recipient="big@example.org")

# ---------------------------------------------------------------- auto-replies


def auto(name: str, extra: str, subject: str = "Re: Gömör 1848, step 3",
         sender: str = "Jan <jan@example.org>") -> None:
    add(f"autoreply__{name}", head(f"a.{name}", sender=sender, subject=subject, extra=extra)
        + "\nI am out of the office until Monday.\nGAME gomor-1848\nSEAT hungary\n",
        reply=False)


auto("rfc3834_auto_replied", "Auto-Submitted: auto-replied")
auto("rfc3834_auto_generated", "Auto-Submitted: auto-generated")
auto("auto_submitted_uppercase", "AUTO-SUBMITTED: Auto-Replied (vacation)")
auto("x_autoreply", "X-Autoreply: yes")
auto("x_autorespond", "X-Autorespond: Out of office")
auto("precedence_bulk", "Precedence: bulk")
auto("precedence_junk", "Precedence: junk")
auto("precedence_list", "Precedence: list")
auto("list_id", "List-Id: Hungarian wargamers <wargamers.example.org>")
auto("list_unsubscribe", "List-Unsubscribe: <mailto:leave@example.org>")
auto("outlook_oof", "X-Auto-Response-Suppress: All", subject="Automatic reply: step 3")
auto("vacation_subject_en", "", subject="Out of Office: Gömör 1848")
auto("vacation_subject_de", "", subject="Abwesenheitsnotiz: Gömör 1848")
auto("vacation_subject_hu", "", subject="Automatikus válasz: Gömör 1848")
auto("vacation_subject_fr", "", subject="Réponse automatique : Gömör 1848")
auto("vacation_subject_plain", "", subject="Vacation")
auto("empty_return_path", "Return-Path: <>")
auto("our_own_report_looped", "Auto-Submitted: auto-generated\nList-Id: <gomor.pbem.test>",
     sender="PBEM <orders@pbem.test>")
auto("mailer_daemon_notice", "", subject="Message delayed",
     sender="MAILER-DAEMON@mx.example.org")
auto("noreply_sender", "", subject="Your account", sender="no-reply@service.example.com")
add("orders__from_our_own_address",
    head("own", sender="PBEM <orders@pbem.test>") + "\n" + orders(),
    game="gomor-1848", seat="hungary", reply=False)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.eml"):
        old.unlink()
    for name, raw in FILES.items():
        (OUT / name).write_bytes(raw)
    table = dict(sorted(EXPECT.items()))
    table.update(HANDCRAFTED)
    (HERE / "expectations.json").write_text(json.dumps(table, indent=1, ensure_ascii=False,
                                                       sort_keys=True) + "\n")
    print(f"{len(FILES)} generated, {len(HANDCRAFTED)} handcrafted, {len(table)} expected")


HANDCRAFTED: dict[str, dict] = {}  # filled below from corpus/handcrafted/*.eml's table
_HANDCRAFTED_TABLE = HERE / "handcrafted" / "expectations.json"
if _HANDCRAFTED_TABLE.exists():
    HANDCRAFTED = {f"handcrafted/{k}": v for k, v in json.loads(
        _HANDCRAFTED_TABLE.read_text()).items()}

if __name__ == "__main__":
    main()
