#!/usr/bin/env python3
"""The Python peer of `bagscope export --format parquet` for ROS 1 bags: rosbag reads the bag,
genpy decodes each message, pandas builds one table per topic (a column for the log time and one per
field, nested messages flattened with '.', arrays kept as lists) and writes it with pyarrow.

Usage: PYTHON export_pandas.py FILE.bag OUTDIR [TOPIC...]

With EXPORT_FORMAT=csv in the environment it writes CSV with pandas' to_csv instead (which needs no
pyarrow), the peer of `bagscope export --format csv`.

PYTHON needs python3-rosbag (Debian) and pandas with pyarrow, e.g. a venv made with
--system-site-packages and `pip install pandas pyarrow`. Without pyarrow (Debian 12 has no package of it)
the tables are built but not written, and each line says so: the time is then a lower bound on the peer's.
"""
import os
import sys

import pandas as pd
import rosbag

try:
    import pyarrow  # noqa: F401

    WRITE = True
except ImportError:
    WRITE = False


def flatten(prefix, msg, out):
    slots = getattr(msg, "__slots__", None)
    if slots is not None and hasattr(msg, "_slot_types"):
        for name in slots:
            v = getattr(msg, name)
            key = prefix + name
            if hasattr(v, "__slots__") and hasattr(v, "_slot_types"):
                flatten(key + ".", v, out)
            elif hasattr(v, "secs") and hasattr(v, "nsecs"):
                out[key + ".secs"] = v.secs
                out[key + ".nsecs"] = v.nsecs
            elif isinstance(v, (list, tuple)):
                out[key] = [flat_value(x) for x in v]
            else:
                out[key] = v
    return out


def flat_value(x):
    if hasattr(x, "__slots__") and hasattr(x, "_slot_types"):
        return flatten("", x, {})
    if hasattr(x, "secs") and hasattr(x, "nsecs"):
        return {"secs": x.secs, "nsecs": x.nsecs}
    return x


def main():
    path, outdir, topics = sys.argv[1], sys.argv[2], sys.argv[3:] or None
    csv = os.environ.get("EXPORT_FORMAT") == "csv"
    os.makedirs(outdir, exist_ok=True)
    rows = {}
    bag = rosbag.Bag(path)
    for topic, msg, t in bag.read_messages(topics=topics):
        row = {"log_time": t.to_nsec()}
        flatten("", msg, row)
        rows.setdefault(topic, []).append(row)
    for topic, rs in rows.items():
        df = pd.DataFrame(rs)
        df["log_time"] = pd.to_datetime(df["log_time"], unit="ns")
        out = os.path.join(outdir, topic.strip("/").replace("/", "_") + (".csv" if csv else ".parquet"))
        if csv:
            df.to_csv(out, index=False)
            print(out, len(df), "rows")
        elif WRITE:
            df.to_parquet(out, engine="pyarrow")
            print(out, len(df), "rows")
        else:
            print(out, len(df), "rows built, not written (no pyarrow)")


main()
