#!/usr/bin/env python3
"""A local SMTP server for the tests and the browser tests: aiosmtpd on 127.0.0.1.

Every message it accepts becomes one JSON file in FOLDER, written whole then renamed
into place (`<n>.json`: {"mailFrom", "recipients", "data", "tls"}), so a reader never
sees half a message. Once listening it prints `port=<n>` on stdout (with `--port 0`,
the default, the kernel picks a free port). It runs until SIGTERM or SIGINT.

  --refuse PREFIX       answer `550` to RCPT TO of an address starting with PREFIX
  --tls CERT KEY        offer STARTTLS (RFC 3207) with this certificate and key

Needs aiosmtpd (`pip install aiosmtpd`; .ci/run installs the pinned version).
"""
import argparse
import asyncio
import json
import os
import signal
import ssl
import sys

from aiosmtpd.smtp import SMTP


class Sink:
    def __init__(self, folder, refuse):
        self.folder = folder
        self.refuse = refuse
        self.count = len([name for name in os.listdir(folder) if name.endswith(".json")])

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse and address.startswith(self.refuse):
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        record = {
            "mailFrom": envelope.mail_from,
            "recipients": envelope.rcpt_tos,
            "data": envelope.original_content.decode("utf-8", "replace"),
            "tls": session.ssl is not None,
        }
        path = os.path.join(self.folder, "%06d.json" % self.count)
        with open(path + ".partial", "w", encoding="utf-8") as file:
            json.dump(record, file)
        os.rename(path + ".partial", path)
        return "250 Message accepted for delivery"


async def serve(arguments):
    sink = Sink(arguments.folder, arguments.refuse)
    context = None
    if arguments.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*arguments.tls)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(sink, hostname="sink.test", tls_context=context, decode_data=False),
        host="127.0.0.1", port=arguments.port, reuse_address=True)
    print("port=%d" % server.sockets[0].getsockname()[1], flush=True)
    stopped = asyncio.Event()
    # A child inherits its parent thread's blocked signals (a test runner's worker
    # thread blocks most): unblocked, or SIGTERM would never arrive.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stopped.set)
    await stopped.wait()
    # At once, open connections and all: every message accepted is already a file of
    # its own, and waiting for the clients' connections to end (a sender keeps one
    # open) could take for ever.
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--refuse")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    arguments = parser.parse_args()
    os.makedirs(arguments.folder, exist_ok=True)
    asyncio.run(serve(arguments))


if __name__ == "__main__":
    sys.exit(main())
