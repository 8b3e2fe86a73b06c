"""Start children that sleep until the kernel refuses another process (or 2,000 are started)."""

import os
import time

for _ in range(2000):
    if os.fork() == 0:
        time.sleep(30)
        os._exit(0)
