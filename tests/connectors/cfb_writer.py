"""A minimal OLE compound-file (CFB v3, MS-CFB) writer, so ``.msg`` fixtures are made by code.

Only what a reader needs: 512-byte sectors, a FAT, the mini stream (64-byte sectors) for
streams under 4096 bytes as the spec requires, and a directory whose siblings form a valid
(degenerate, right-leaning) binary search tree in CFB name order. No DIFAT beyond the header
(files up to ~7 MB), which is plenty for test messages.
"""

from __future__ import annotations

import itertools
import struct

__all__ = ["write_cfb"]

SECTOR, MINI, CUTOFF = 512, 64, 4096
FREE, END, FATSECT, NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def _key(name: str) -> tuple[int, str]:
    return (len(name), name.upper())


def write_cfb(streams: dict[str, bytes]) -> bytes:
    """Bytes of a compound file holding ``streams`` ({"a/b/c": data}, storages implied)."""
    nodes: dict[str, dict] = {"": {"name": "Root Entry", "type": 5, "kids": [], "data": b""}}
    for path in sorted(streams):
        parts = path.split("/")
        for depth in range(1, len(parts)):
            sp = "/".join(parts[:depth])
            if sp not in nodes:
                nodes[sp] = {"name": parts[depth - 1], "type": 1, "kids": [], "data": b""}
                nodes["/".join(parts[:depth - 1])]["kids"].append(sp)
        nodes[path] = {"name": parts[-1], "type": 2, "kids": [], "data": streams[path]}
        nodes["/".join(parts[:-1])]["kids"].append(path)
    order = list(nodes)
    index = {p: i for i, p in enumerate(order)}
    # the mini stream holds the small streams; big ones get regular sectors
    mini = bytearray()
    minifat: list[int] = []
    big: list[tuple[str, bytes]] = []
    for p in order:
        n = nodes[p]
        if n["type"] != 2:
            continue
        data = n["data"]
        if len(data) < CUTOFF:
            count = max(1, -(-len(data) // MINI)) if data else 0
            n["start"] = len(minifat) if count else END
            for k in range(count):
                minifat.append(len(minifat) + 1 if k < count - 1 else END)
            mini += data + b"\0" * (count * MINI - len(data))
        else:
            big.append((p, data))
    n_dir = -(-len(order) * 128 // SECTOR)
    n_minifat = -(-len(minifat) * 4 // SECTOR)
    n_mini = -(-len(mini) // SECTOR)
    n_big = sum(-(-len(d) // SECTOR) for _, d in big)
    n_fat = 1
    while n_fat * (SECTOR // 4) < n_fat + n_dir + n_minifat + n_mini + n_big:
        n_fat += 1
    fat: list[int] = [FATSECT] * n_fat

    def chain(count: int) -> int:
        start = len(fat)
        for k in range(count):
            fat.append(start + k + 1 if k < count - 1 else END)
        return start if count else END

    dir_start = chain(n_dir)
    minifat_start = chain(n_minifat)
    mini_start = chain(n_mini)
    body = bytearray()
    for p, data in big:
        nodes[p]["start"] = chain(-(-len(data) // SECTOR))
        body += data + b"\0" * (-len(data) % SECTOR)
    fat += [FREE] * (n_fat * (SECTOR // 4) - len(fat))
    nodes[""]["start"] = mini_start if mini else END
    nodes[""]["size"] = len(mini)
    entries = bytearray()
    for p in order:
        n = nodes[p]
        kids = sorted(n["kids"], key=lambda k: _key(nodes[k]["name"]))
        for a, b in itertools.pairwise(kids):
            nodes[a]["right"] = index[b]
        n["child"] = index[kids[0]] if kids else NOSTREAM
    for p in order:
        n = nodes[p]
        name = n["name"].encode("utf-16-le") + b"\0\0"
        size = n.get("size", len(n["data"])) if n["type"] != 1 else 0
        start = n.get("start", END) if n["type"] != 1 else 0
        entries += struct.pack("<64sHBBIII16sIQQIQ", name, len(name), n["type"], 1, NOSTREAM,
                               n.get("right", NOSTREAM), n["child"], b"\0" * 16, 0, 0, 0, start, size)
    entries += b"\0" * (n_dir * SECTOR - len(entries))
    for k in range(len(entries) // 128 - len(order)):  # unused directory slots are empty entries
        at = (len(order) + k) * 128
        entries[at + 68:at + 80] = struct.pack("<III", NOSTREAM, NOSTREAM, NOSTREAM)
    difat = list(range(n_fat)) + [FREE] * (109 - n_fat)
    header = struct.pack("<8s16sHHHHH6sIIIIIIIII", bytes.fromhex("D0CF11E0A1B11AE1"), b"\0" * 16, 0x3E, 3,
                         0xFFFE, 9, 6, b"\0" * 6, 0, n_fat, dir_start, 0, CUTOFF,
                         minifat_start if minifat else END, n_minifat, END, 0)
    header += struct.pack("<109I", *difat)
    minifat_bytes = struct.pack(f"<{len(minifat)}I", *minifat) + struct.pack("<I", FREE) * (
        n_minifat * SECTOR // 4 - len(minifat))
    return (header + struct.pack(f"<{len(fat)}I", *fat) + entries + minifat_bytes
            + bytes(mini) + b"\0" * (n_mini * SECTOR - len(mini)) + bytes(body))
