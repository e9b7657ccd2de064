"""Which mail folder is the person's *sent* folder, from its name alone.

Why: outside Gmail (whose export labels each message ``Sent``) the only sign that a message
was written by the owner is the folder it sits in: Maildir++ ``.Sent``, Thunderbird's ``Sent``
mbox beside ``Sent.msf``, Apple Mail's ``Sent Messages.mbox``, Outlook's ``Sent Items``. Mail
programs localise these names, so the common translations are listed. Messages found in such
a folder get the label ``Sent`` — the same signal a Gmail export gives — so identity treats
their From as the owner's.
"""

from __future__ import annotations

import re

__all__ = ["SENT_LABEL", "is_sent_folder"]

SENT_LABEL = "Sent"

_SENT_NAMES = frozenset({
    "sent", "sent items", "sent mail", "sent messages", "sent-mail", "sentmail", "outbox sent",
    "gesendet", "gesendete objekte", "gesendete elemente", "gesendete nachrichten",
    "envoyés", "envoyes", "éléments envoyés", "elements envoyes", "messages envoyés",
    "enviados", "elementos enviados", "enviadas", "itens enviados", "mensagens enviadas",
    "posta inviata", "inviata", "inviati", "elementi inviati",
    "verzonden", "verzonden items", "verzonden berichten",
    "skickat", "skickade objekt", "skickade", "sendt", "sendte elementer", "sendte", "sendt post",
    "lähetetyt", "lähetetyt viestit", "wysłane", "elementy wysłane", "odeslaná pošta", "odeslané",
    "отправленные", "надіслані", "gönderilmiş öğeler", "gönderilenler", "elküldött elemek",
    "送信済み", "送信済みアイテム", "已发送", "已发送邮件", "寄件備份", "보낸 편지함",
})
_SUFFIX = re.compile(r"\.(?:mbox|sbd|mbx|msf)$", re.IGNORECASE)


def is_sent_folder(name: str) -> bool:
    """True for a folder (or folder-file) name that means "sent mail".

    Accepts ``Sent``, ``.Sent`` (Maildir++), ``.INBOX.Sent`` / ``INBOX/Sent`` (the last part of
    a hierarchy), ``Sent Messages.mbox`` (Apple Mail) and ``[Gmail]/Sent Mail`` (IMAP copies).
    """
    base = _SUFFIX.sub("", name.strip())
    last = re.split(r"[./\\]", base.strip("."))[-1] if base.strip(".") else ""
    return last.strip().lower() in _SENT_NAMES
