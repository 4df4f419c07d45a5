#!/usr/bin/env bash
# t88-help: each command's --help, 'gfpaudit help CMD' and manual page list
# exactly the options its getopt table parses, and gfpaudit.1 every
# environment variable the sources read (tests/help_options.py).
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
exec python3 "$here/help_options.py" "$G" "$here/.."
