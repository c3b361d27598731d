"""Check hardware/protocol/vectors.json against a codec module: runs on CPython and on
MicroPython (the tests run it on both, under Node for the latter), so it sticks to the
subset both share.

    report = check(codec, json.loads(text))
    report["failures"]   # [] when every vector holds
"""


def unhex(s):
    return bytes([int(s[i:i + 2], 16) for i in range(0, len(s), 2)])


def hexs(b):
    return "".join(["%02x" % x for x in b])


def plain(v):
    """JSON's view of a value: bytes as hex, tuples as lists."""
    if isinstance(v, (bytes, bytearray)):
        return hexs(v)
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        out = {}
        for k in v:
            out[k] = plain(v[k])
        return out
    return v


def pack_fields(c, kind, f):
    """Payload bytes from a vector's fields: the inverse of codec.unpack_payload."""
    if f is None:
        return b""
    if kind == c.IDENT:
        return c.pack_ident(f["version"], unhex(f["uid"]), f["boot_id"], f["caps"], f["faces"],
                            f["major"], f["minor"], f["tokens"], f["buttons"])
    if kind == c.ROLL_STATE or kind == c.REPLAY:
        return c.pack_roll_state(f["state"], f["face"], f["confidence"], f["t_ms"], f["counter"])
    if kind == c.TOKEN or kind == c.BUTTON:
        return c.pack_switch(f["index"], f["active"], f["bits"], f["t_ms"], f["counter"])
    if kind == c.HEARTBEAT:
        return c.pack_heartbeat(f["uptime_ms"], [f["counters"][n] for n in c.COUNTER_NAMES
                                                 if n in f["counters"]])
    if kind == c.BATTERY:
        pct = c.BATTERY_UNKNOWN if f["percent"] is None else f["percent"]
        return c.pack_battery(f["millivolts"], pct, f["charging"])
    if kind == c.SNAPSHOT:
        dice = [(d["state"], d["face"], d["confidence"], d["counter"], d["cal_revision"],
                 d["calibrated"]) for d in f["dice"]]
        return c.pack_snapshot(f["t_ms"], dice, f["tokens"], f["buttons"])
    if kind == c.TELEMETRY:
        t0 = f["samples"][0][0]
        return c.pack_telemetry(t0, [(s[0] - t0, s[1], s[2], s[3]) for s in f["samples"]])
    if kind == c.LOG:
        return c.pack_log(f["level"], f["text"])
    if kind == c.ACK:
        return c.pack_ack(f["type"], f["seq"], f["status"], f["detail"], f["value"])
    if kind == c.SET_CONFIG:
        return c.pack_set_config(f["key"], f["value"])
    if kind == c.CALIBRATE_FACE:
        return c.pack_calibrate(f["face"], f["mode"])
    if kind == c.SET_TELEMETRY:
        return c.pack_set_telemetry(f["rate_hz"])
    if kind == c.REBOOT:
        return c.pack_reboot(f["mode"])
    raise ValueError("no fields for type %d" % kind)


def _drops(c, d):
    out = {}
    for r in c.DROP_REASONS:
        if d.counts[r]:
            out[r] = d.counts[r]
    return out


def check(c, v, table_only=False):
    """Every vector against codec ``c``. ``table_only`` forces the table CRC (the
    board's path) even where binascii.crc_hqx exists."""
    fails = []
    crc = c.crc16_table if table_only else c.crc16
    if v["protocol"]["major"] != c.PROTOCOL_MAJOR or v["protocol"]["minor"] != c.PROTOCOL_MINOR:
        fails.append("protocol version")
    for name in v["types"]:
        if getattr(c, name) != v["types"][name]:
            fails.append("type id of " + name)
    for case in v["crc16"]:
        for fn in (crc, c.crc16_table):
            if fn(unhex(case["data"])) != case["crc"]:
                fails.append("crc16 of " + case["data"])
    for case in v["cobs"]:
        if hexs(c.cobs_encode(unhex(case["data"]))) != case["encoded"]:
            fails.append("cobs_encode " + case["data"])
        if hexs(c.cobs_decode(unhex(case["encoded"]))) != case["data"]:
            fails.append("cobs_decode " + case["encoded"])
    decoded = []
    for f in v["frames"]:
        kind = f["type_id"]
        payload = unhex(f["payload"])
        if f["fields"] is not None and not f.get("raw"):  # raw: fields read, not packed
            if hexs(pack_fields(c, kind, f["fields"])) != f["payload"]:
                fails.append("pack: " + f["name"])
        if hexs(c.encode_frame(kind, f["seq"], f["src"], payload)) != f["wire"]:
            fails.append("encode: " + f["name"])
        d = c.Decoder()
        got = d.feed(unhex(f["wire"]))
        if len(got) != 1 or d.errors():
            fails.append("decode: " + f["name"])
            continue
        g = got[0]
        if (g.version, g.type, g.seq, g.src, hexs(g.payload)) != (
                c.PROTOCOL_MAJOR, kind, f["seq"], f["src"], f["payload"]):
            fails.append("header/payload: " + f["name"])
        fields = plain(c.unpack_payload(g.type, g.payload))
        if fields != f["fields"]:
            fails.append("fields: " + f["name"])
        decoded.append([g.type, g.seq, g.src, hexs(g.payload), fields])
    drops = []
    for case in v["invalid"]:
        d = c.Decoder()
        got = d.feed(unhex(case["wire"]))
        reasons = _drops(c, d)
        if got or reasons != {case["reason"]: 1}:
            fails.append("invalid: %s gave %r" % (case["name"], reasons))
        drops.append(reasons)
    for s in v["streams"]:
        wire = unhex(s["wire"])
        for size in (1, 7, 64, len(wire)):  # any chunking gives the same frames
            d = c.Decoder()
            got = []
            for i in range(0, len(wire), size):
                got += d.feed(wire[i:i + size])
            if [hexs(c.encode_frame(g.type, g.seq, g.src, g.payload)) for g in got] != s["frames"]:
                fails.append("stream frames: %s (chunks of %d)" % (s["name"], size))
            if _drops(c, d) != s["drops"]:
                fails.append("stream drops: %s (chunks of %d)" % (s["name"], size))
    return {"failures": fails, "decoded": decoded, "drops": drops}
