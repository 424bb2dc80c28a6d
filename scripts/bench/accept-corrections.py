#!/usr/bin/env python3
"""Accepts COUNT catalog corrections in one transaction, as a moderator's decisions add
them: rows of `catalog_corrections` in a data directory's accounts.sqlite, written beside
a running server (which builds their generation within seconds). Seeded random photos
of the catalog, each moved to a random point of the five-borough box, or given a year,
or a turn. Prints the highest `sequence` after the insert.

Usage: accept-corrections.py DATA_DIR COUNT SEED
"""
import random
import sqlite3
import sys
import time


def main() -> None:
    data_dir, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    catalog = sqlite3.connect(f"file:{data_dir}/catalog.sqlite?mode=ro", uri=True)
    photos = [row[0] for row in catalog.execute("SELECT photo_id FROM photos ORDER BY position")]
    catalog.close()
    accounts = sqlite3.connect(f"{data_dir}/accounts.sqlite", timeout=30)
    now = int(time.time())
    rows = []
    for _ in range(count):
        photo = rng.choice(photos)
        kind = rng.choice(["location", "location", "date", "rotation"])
        if kind == "location":
            rows.append((photo, kind, rng.uniform(40.55, 40.88), rng.uniform(-74.15, -73.75), None, None, now))
        elif kind == "date":
            rows.append((photo, kind, None, None, rng.randint(1870, 1970), None, now))
        else:
            rows.append((photo, kind, None, None, None, rng.choice([90, 180, 270]), now))
    with accounts:
        accounts.executemany(
            "INSERT INTO catalog_corrections (photo_id, kind, latitude, longitude, year, degrees, accepted_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    print(accounts.execute("SELECT max(sequence) FROM catalog_corrections").fetchone()[0])
    accounts.close()


if __name__ == "__main__":
    main()
