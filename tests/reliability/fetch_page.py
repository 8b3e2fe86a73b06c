"""Copied into a test's workspace and run by the scripted agent: print the page a local
server serves on the port given, retrying for a few seconds while the server starts."""

import sys
import time
import urllib.request

deadline = time.monotonic() + 10
while True:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=2) as page:
            print(page.read().decode())
        break
    except OSError as error:
        if time.monotonic() > deadline:
            print(f"no answer: {error}")
            sys.exit(1)
        time.sleep(0.1)
