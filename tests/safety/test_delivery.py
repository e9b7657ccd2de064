"""Received chains and Authentication-Results: what takes trust away from a From header."""

from __future__ import annotations

import pytest

from connectors.local.delivery import auth_failure, external_hop, org_domain
from connectors.local.mailparse import message_from_parts, parse_header_block


def test_org_domain() -> None:
    assert org_domain("mx2.mail.tidewater.io") == "tidewater.io"
    assert org_domain("smtp.example.co.uk") == "example.co.uk"
    assert org_domain("localhost") == "localhost"


@pytest.mark.parametrize(("chain", "outside"), [
    ("from mail-out1.evil.example (mail-out1.evil.example [198.51.100.7]) by mx.tidewater.io with ESMTPS id x",
     "mail-out1.evil.example"),
    ("from [203.0.113.5] by mx.tidewater.io with ESMTP id y", "203.0.113.5"),
    # the owner's client submitting to her own provider (authenticated): not delivery from outside
    ("from [192.168.1.20] (cpe.isp.example [203.0.113.9]) by smtp.tidewater.io with ESMTPSA id q", ""),
    ("from mail.tidewater.io (mail.tidewater.io [10.0.4.2]) by mx.tidewater.io with ESMTP id r", ""),
    ("from mail-sor-f41.google.com (mail-sor-f41.google.com. [209.85.220.41]) by mx.google.com with SMTPS", ""),
    ("from localhost (localhost [127.0.0.1]) by mx.tidewater.io with ESMTP", ""),
    ("by 2002:a05:6a10:1234 with SMTP id x", ""),
    ("from 1234567 named unknown by gmailapi.google.com with HTTPREST", ""),
    # newest first: the internal hop on top does not hide the external one below it
    ("from mx.tidewater.io (mx.tidewater.io [10.0.0.1]) by store.tidewater.io with LMTP\n"
     "from relay.partner.example (relay.partner.example [192.0.2.4]) by mx.tidewater.io with ESMTPS",
     "relay.partner.example"),
])
def test_external_hop(chain: str, outside: str) -> None:
    assert external_hop(chain) == outside


@pytest.mark.parametrize(("results", "sender", "why"), [
    ("mx.t; dkim=pass header.d=tidewater-io.example; spf=pass smtp.mailfrom=tidewater-io.example; "
     "dmarc=pass header.from=tidewater-io.example", "p@tidewater-io.example", ""),
    ("mx.t; dkim=none; spf=softfail smtp.mailfrom=x.example; dmarc=fail (p=reject) header.from=tidewater.io",
     "p@tidewater.io", "dmarc=fail"),
    ("mx.t; dkim=fail header.d=tidewater.io", "p@tidewater.io", "dkim=fail"),
    ("mx.t; dkim=pass header.d=sendgrid.net; spf=pass smtp.mailfrom=bounces.sendgrid.net", "p@tidewater.io",
     "dkim/spf passed for another domain than tidewater.io"),
    ("mx.t; dmarc=pass header.from=other.example", "p@tidewater.io",
     "dmarc passed for another domain than tidewater.io"),
    ("mx.t; dkim=pass header.i=@mail.tidewater.io", "p@tidewater.io", ""),
    # RFC 8601: "none" is no policy/record/signature, not a failure; but a received copy that
    # nothing authenticated is not vouched for (see test_nothing_authenticated_*)
    ("mx.t; none", "p@tidewater.io", "nothing authenticated the sender (none)"),
    ("mx.t; spf=none smtp.mailfrom=tidewater.io; dkim=none (message not signed); dmarc=none header.from=tidewater.io",
     "p@tidewater.io", "nothing authenticated the sender (spf=none, dkim=none, dmarc=none)"),
    ("mx.t; spf=neutral smtp.mailfrom=tidewater.io; dkim=temperror header.d=tidewater.io", "p@tidewater.io",
     "nothing authenticated the sender (spf=neutral, dkim=temperror)"),
    # one aligned pass vouches, whatever the other methods say
    ("mx.t; spf=none smtp.mailfrom=tidewater.io; dkim=pass header.d=tidewater.io; dmarc=none", "p@tidewater.io", ""),
    ("mx.t; spf=pass smtp.mailfrom=p@tidewater.io; dkim=none; dmarc=none header.from=tidewater.io",
     "p@tidewater.io", ""),
    # Microsoft's composite authentication vouches / fails like DMARC
    ("eop; spf=none smtp.mailfrom=tidewater.io; dkim=none; dmarc=none header.from=tidewater.io; compauth=pass "
     "reason=109", "p@tidewater.io", ""),
    ("eop; spf=none smtp.mailfrom=tidewater.io; dkim=none; dmarc=none header.from=tidewater.io; compauth=fail "
     "reason=601", "p@tidewater.io", "compauth=fail"),
    # the sender logged in to the receiving server (SMTP AUTH): one of its own users
    ("mx.t; auth=pass smtp.auth=p@tidewater.io; spf=none; dkim=none; dmarc=none", "p@tidewater.io", ""),
    ("", "p@tidewater.io", ""),
])
def test_auth_failure(results: str, sender: str, why: str) -> None:
    assert auth_failure(results, sender) == why


def _msg(raw: str, **kw: object):  # type: ignore[no-untyped-def]
    headers = parse_header_block(raw.encode())
    return message_from_parts(headers, "body", source="mbox:/x", ref="1", clean=lambda t, *a: t, **kw)


def test_message_fields_and_third_party_reason() -> None:
    inbound = _msg("X-Gmail-Labels: Sent\nReceived: from a.evil.example (a.evil.example [192.0.2.1]) by mx.t.io "
                   "with ESMTPS\nReceived: from b by c\nFrom: P <p@t.io>\nSender: bulk@evil.example\n"
                   "Authentication-Results: mx.t.io; dmarc=fail header.from=t.io\n")
    assert inbound.delivered_from == "a.evil.example" and inbound.auth_failure == "dmarc=fail"
    assert inbound.on_behalf_of == "bulk@evil.example"
    # a forged Sent label on mail delivered from outside: nobody's Sent mail
    assert inbound.in_sent and inbound.authored_by_owner is False
    assert inbound.third_party_reason == "delivered from outside (a.evil.example)"
    sent = _msg("X-Gmail-Labels: Sent,Opened\nFrom: P <p@t.io>\n")
    assert sent.authored_by_owner is True and sent.third_party_reason == ""
    inbox = _msg("X-Gmail-Labels: Inbox,Opened\nFrom: P <p@t.io>\n")
    assert inbox.third_party_reason == "received (in the inbox, not in Sent)"
    behalf = _msg("From: P <p@t.io>\nSender: agent@crm.example\n")
    assert behalf.third_party_reason.startswith("sent on behalf")
    plain = _msg("From: P <p@t.io>\n")  # a mailbox that tells nothing: From decides
    assert plain.third_party_reason == ""
    # PST exports name the folder; an inbox is received mail, a claimed Sent folder is ignored
    assert _msg("From: P <p@t.io>\nX-Folder: \\\\Raman, P\\\\Inbox\n").labels == ("Inbox",)
    assert _msg("From: P <p@t.io>\nX-Folder: \\\\Raman, P\\\\Sent Items\n").labels == ()
    maildir_sent = _msg("From: P <p@t.io>\n", sent_hint=True)
    assert maildir_sent.authored_by_owner is True and maildir_sent.third_party_reason == ""
    assert maildir_sent.in_sent and maildir_sent.labels == ("Sent",)  # the generic Sent-folder signal


@pytest.mark.parametrize(("address", "original"), [
    ("priya.raman@tidewater-io.example", "priya.raman@tidewater.io"),
    ("priya.raman@tide-water.io", "priya.raman@tidewater.io"),
    ("priya.raman@t1dewater.io", "priya.raman@tidewater.io"),
    ("priya.raman@tidewater1.io", "priya.raman@tidewater.io"),
    ("priya.raman@tidewat\u0435r.io", "priya.raman@tidewater.io"),
    ("priya.raman@xn--tdewater-thh.io", "priya.raman@tidewater.io"),
    ("priya.rarnan@tidewater.io", "priya.raman@tidewater.io"),
    ("priya.raman@gmail.com", ""),  # free mail imitates no company
    ("p.raman@tidewater.io", ""),  # an ordinary alias at her own domain
    ("priya.raman@mail.tidewater.io", ""),  # her own organisation's subdomain
    ("tomas@partner.example", ""),
    ("priya.raman@tidewater.io", ""),  # herself
])
def test_imitates(address: str, original: str) -> None:
    from bootstrap_app.identity.confusables import imitates

    owned = frozenset({"priya.raman@tidewater.io", "p.raman.home@fastmail.com"})
    assert imitates(address, owned, frozenset({"gmail.com", "fastmail.com"})) == original


@pytest.mark.parametrize(("chain", "outside"), [
    # the HELO name is typed by the client: a stranger without reverse DNS calling itself the owner's server
    ("from mx.tidewater.io (unknown [203.0.113.5]) by mx.tidewater.io with ESMTP id 1", "203.0.113.5"),
    ("from mail.tidewater.io (HELO mail.tidewater.io) (203.0.113.5) by mx.tidewater.io with SMTP", "203.0.113.5"),
    ("from [203.0.113.5] (helo=mail.tidewater.io) by mx.tidewater.io with esmtp id 2", "203.0.113.5"),
    # Exim: the first word is the reverse-DNS name, the claimed HELO follows
    ("from mail.evil.example ([203.0.113.5] helo=mx.tidewater.io) by mx.tidewater.io with esmtp", "mail.evil.example"),
    # a real top hop from outside, with forged internal-looking hops below it: the top one decides
    ("from mail.evil.example (mail.evil.example [198.51.100.7]) by mx.tidewater.io with ESMTPS\n"
     "from mail.tidewater.io (mail.tidewater.io [10.0.4.2]) by smtp.tidewater.io with ESMTPSA", "mail.evil.example"),
    # the owner's provider with reverse DNS and HELO agreeing stays internal
    ("from mail.tidewater.io (mail.tidewater.io [203.0.113.5]) by mx.tidewater.io with ESMTP", ""),
])
def test_external_hop_does_not_believe_the_helo_name(chain: str, outside: str) -> None:
    assert external_hop(chain) == outside


_NONE = ("Authentication-Results: mx.google.com; spf=none (google.com: p@t.io does not designate permitted sender "
         "hosts) smtp.mailfrom=p@t.io; dkim=none; dmarc=none header.from=t.io\n")
_SHARED_HOP = ("Received: from mail-sor-f41.google.com (mail-sor-f41.google.com. [209.85.220.41]) by mx.google.com "
               "with SMTPS id x\n")


def test_nothing_authenticated_inbound_copy_is_third_party() -> None:
    """The owner's address on a received copy (the receiving server stamped Authentication-Results)
    that no method authenticated: a spoof from a domain without SPF/DKIM/DMARC looks exactly like
    this, and a hop inside one shared provider does not show it came from outside."""
    spoof = _msg(_SHARED_HOP + _NONE + "From: P <p@t.io>\nTo: P <p@t.io>\n")
    assert spoof.delivered_from == ""  # the chain alone cannot tell
    assert spoof.third_party_reason.startswith("not vouched for by sender authentication (nothing authenticated")
    assert spoof.authored_by_owner is False
    # a Sent label on it (a plain mbox keeps whatever X-Gmail-Labels the sender typed) changes nothing
    forged = _msg("X-Gmail-Labels: Sent\n" + _SHARED_HOP + _NONE + "From: P <p@t.io>\n")
    assert forged.in_sent and forged.authored_by_owner is False and forged.third_party_reason
    # one aligned pass and the copy is vouched for (her own mail to herself)
    signed = _msg(_SHARED_HOP + _NONE.replace("dkim=none", "dkim=pass header.d=t.io") + "From: P <p@t.io>\n")
    assert signed.third_party_reason == ""


def test_sent_folder_mail_without_authentication_results_is_the_owners() -> None:
    """A sent copy is stored by the owner's own client/submission server and never received, so
    it carries no Authentication-Results at all: Sent-folder mail of an export stays hers."""
    submitted = ("Received: from [192.168.1.20] (cpe.isp.example [203.0.113.9]) by smtp.t.io with ESMTPSA id q\n"
                 "From: P <p@t.io>\nTo: Q <q@partner.example>\n")
    for msg in (_msg(submitted, sent_hint=True), _msg("X-Gmail-Labels: Sent\n" + submitted),
                _msg("From: P <p@t.io>\n", sent_hint=True)):
        assert msg.third_party_reason == "" and msg.authored_by_owner is True


def test_exchange_internal_submission_vouches_only_inside_the_organisation() -> None:
    """Mail between two people of one Microsoft 365 tenant carries ``dkim=none; dmarc=none``;
    Exchange's own ``X-MS-Exchange-Organization-AuthAs: Internal`` says it authenticated the
    submitting user. That vouches for a copy whose chain stayed inside; carried on mail from
    outside (where no header firewall stripped it) it proves nothing."""
    tenant_hop = ("Received: from AM0PR01MB7000.eurprd01.prod.outlook.com (2603:10a6:208:1::5) by "
                  "AM0PR01MB7001.eurprd01.prod.outlook.com (2603:10a6:20b:1c1::9) with Microsoft SMTP Server\n")
    internal_none = "Authentication-Results: dkim=none (message not signed) header.d=none;dmarc=none " \
                    "action=none header.from=t.io;\n"
    colleague = _msg(tenant_hop + internal_none + "X-MS-Exchange-Organization-AuthAs: Internal\n"
                     "From: Q <q@t.io>\n")
    assert colleague.auth_failure == "" and colleague.delivered_from == ""
    unvouched = _msg(tenant_hop + internal_none + "From: Q <q@t.io>\n")
    assert unvouched.auth_failure.startswith("nothing authenticated")
    anonymous = _msg(tenant_hop + internal_none + "X-MS-Exchange-Organization-AuthAs: Anonymous\n"
                     "From: Q <q@t.io>\n")
    assert anonymous.auth_failure.startswith("nothing authenticated")
    outside = _msg("Received: from a.evil.example (a.evil.example [192.0.2.1]) by mx.t.io with ESMTPS\n"
                   + internal_none + "X-MS-Exchange-Organization-AuthAs: Internal\nFrom: P <p@t.io>\n")
    assert outside.auth_failure.startswith("nothing authenticated") and outside.authored_by_owner is False


def test_exchange_internal_submission_counts_only_when_exchange_received_the_copy() -> None:
    """Only Exchange strips ``X-MS-Exchange-Organization-*`` from anonymous mail. A mailbox kept
    elsewhere (a Gmail account exported through IMAP to a plain mbox) keeps whatever the sender
    typed: a spoof relayed inside one shared provider, nothing authenticated, with a forged
    ``AuthAs: Internal`` stays someone else's text. The newest ``Received`` is the mailbox's own
    server's (a sender's headers can only sit below it), so it says whether Exchange received it."""
    authas = "X-MS-Exchange-Organization-AuthAs: Internal\n"
    spoof = _msg(_SHARED_HOP + _NONE + authas + "From: P <p@t.io>\n")
    assert spoof.auth_failure.startswith("nothing authenticated") and spoof.authored_by_owner is False
    # a forged Exchange hop *below* the real newest one does not help either
    below = _msg(_SHARED_HOP + "Received: from a.t.io (a.t.io [10.0.0.5]) by b.t.io with Microsoft SMTP Server\n"
                 + _NONE + authas + "From: P <p@t.io>\n")
    assert below.auth_failure.startswith("nothing authenticated")
    # Exchange Online hands mail to the mailbox over HTTPS or MAPI as well as SMTP
    for proto in ("HTTPS", "mapi id 15.20.4394.023"):
        top = (f"Received: from BY5PR04MB6709.namprd04.prod.outlook.com (2603:10b6:a03:1c8::1) by "
               f"MN2PR04MB6272.namprd04.prod.outlook.com with {proto}; Tue, 10 Aug 2021 10:00:00 +0000\n")
        tenant = _msg(top + _NONE + authas + "From: Q <q@t.io>\n")
        assert tenant.auth_failure == "" and tenant.delivered_from == "", proto
