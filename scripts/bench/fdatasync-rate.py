"""The disk's durable-write yardstick of scripts/bench.sh: single-threaded 4 KiB writes,
each followed by fdatasync, into a file in the given directory (the server's data
directory), for the given seconds. The file wraps at 4 MiB, as a write-ahead log is
reused after its checkpoint. Prints one line in bench.sh's measure format:
"<writes/s> - - 0 0 - - - -"."""
import os
import sys
import time


def main():
    directory, seconds = sys.argv[1], float(sys.argv[2])
    path = os.path.join(directory, "fdatasync-rate.probe")
    block = os.urandom(4096)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    count = 0
    try:
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            if count % 1024 == 0:
                os.lseek(descriptor, 0, os.SEEK_SET)
            os.write(descriptor, block)
            os.fdatasync(descriptor)
            count += 1
        elapsed = time.monotonic() - started
    finally:
        os.close(descriptor)
        os.unlink(path)
    print("%.0f - - 0 0 - - - -" % (count / elapsed))


if __name__ == "__main__":
    main()
